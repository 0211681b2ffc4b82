/* Find the dominant frequency of a noisy tone with a short-time Fourier
 * transform, on every backend libeh was built with.  The noise comes from
 * libeh's seeded generator, so every backend sees the same signal. */
#include <stdio.h>
#include <eh/eh.h>

#define SAMPLE_RATE 8000.0
#define TONE_HZ 1000.0
#define N_SAMPLES 4096
#define N_FFT 256
#define HOP 128
#define MAX_FRAMES 64

static int analyse_on(const char *backend)
{
    if (eh_set_backend(backend) != EH_OK)
        return 1;
    int64_t peaks[MAX_FRAMES];
    int64_t n_frames = 0;
    const int freq_axis[1] = {0};
    const int part_axis[1] = {-1};

    eh_seed(42);
    eh_scope_begin();
    eh_tensor *t = eh_divide_scalar(eh_arange(0, N_SAMPLES, 1, EH_F64), SAMPLE_RATE);
    eh_tensor *tone = eh_sin(eh_multiply_scalar(t, 2.0 * 3.141592653589793 * TONE_HZ));
    eh_tensor *noise = eh_random_normal(1, (const int64_t[]){N_SAMPLES}, 0.0, 0.3, EH_F64);
    eh_tensor *signal = eh_add(tone, noise);
    eh_tensor *window = eh_hann_window(N_FFT, 1, EH_F64);
    eh_tensor *spec = eh_stft(signal, N_FFT, HOP, window, 1); /* (bins, frames, 2) */
    eh_tensor *power = eh_sum(eh_square(spec), part_axis, 1, 0); /* re^2 + im^2 */
    eh_tensor *peak = eh_argmax(power, freq_axis[0], 0);        /* per frame */
    eh_status st = peak ? EH_OK : eh_last_error();
    if (st == EH_OK) {
        n_frames = eh_size(peak);
        st = n_frames <= MAX_FRAMES ? eh_to_buffer(peak, peaks, sizeof peaks)
                                    : EH_ERR_SHAPE;
    }
    eh_scope_end();

    if (st != EH_OK) {
        fprintf(stderr, "spectrum: %s\n", eh_error_message());
        return 1;
    }
    printf("[%s] %lld frames, strongest bin per frame:", backend, (long long)n_frames);
    for (int64_t f = 0; f < n_frames; f++)
        printf(" %lld", (long long)peaks[f]);
    printf("\n  bin %lld is %.1f Hz (tone: %.1f Hz)\n", (long long)peaks[n_frames / 2],
           SAMPLE_RATE / N_FFT * (double)peaks[n_frames / 2], TONE_HZ);
    return 0;
}

int main(void)
{
    const char *backends[8];
    int n = eh_list_backends(backends, 8);
    int failed = 0;
    for (int k = 0; k < n && k < 8; k++)
        failed |= analyse_on(backends[k]);
    return failed;
}
