#define TYPED(n) n##_f32
#include TFILE
#undef TYPED
#define TYPED(n) n##_f64
#include TFILE
#undef TYPED
#undef TFILE
