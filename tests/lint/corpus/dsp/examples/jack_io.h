/* Only included where HAVE_JACK is defined: not blamed for failing on its own. */
#ifndef JACK_IO_H
#define JACK_IO_H
#include <jack/jack.h>
jack_client_t *io_client(void);
#endif
