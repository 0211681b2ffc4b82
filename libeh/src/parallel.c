/* A small persistent thread pool for backends (eh_parallel_for).
 *
 * Workers are started on first use and live for the process.  One job runs
 * at a time (a mutex serializes callers); a call from inside a worker runs
 * inline, so kernels may nest without deadlock. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"

#define MAX_THREADS 256

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int n_threads = 1;

static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER; /* one job at a time */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static int n_started;

/* The current job, guarded by `lock`. */
static struct {
    eh_range_fn fn;
    void *ctx;
    int64_t n, chunk, next;  /* chunks are handed out by `next` */
    int pending;             /* chunks not finished */
    unsigned long generation;
} job;

static _Thread_local int in_worker;

static void init_threads(void)
{
    const char *env = getenv("EH_NUM_THREADS");
    long n = env ? strtol(env, NULL, 10) : 0;
    if (n < 1)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    n_threads = (int)n;
}

int eh_num_threads(void)
{
    pthread_once(&once, init_threads);
    return n_threads;
}

/* Take and run chunks of the current job until none are left. */
static void run_chunks(int worker)
{
    for (;;) {
        pthread_mutex_lock(&lock);
        if (!job.fn || job.next >= job.n) {
            pthread_mutex_unlock(&lock);
            return;
        }
        int64_t begin = job.next;
        int64_t end = begin + job.chunk < job.n ? begin + job.chunk : job.n;
        job.next = end;
        eh_range_fn fn = job.fn;
        void *ctx = job.ctx;
        pthread_mutex_unlock(&lock);

        fn(ctx, begin, end, worker);

        pthread_mutex_lock(&lock);
        if (--job.pending == 0)
            pthread_cond_broadcast(&done);
        pthread_mutex_unlock(&lock);
    }
}

static void *worker_main(void *arg)
{
    int worker = (int)(intptr_t)arg;
    unsigned long seen = 0;
    in_worker = 1;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (job.generation == seen)
            pthread_cond_wait(&wake, &lock);
        seen = job.generation;
        pthread_mutex_unlock(&lock);
        run_chunks(worker);
    }
    return NULL;
}

/* Start the workers once; on failure we simply run with fewer. */
static void start_workers(void)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int k = 1; k < n_threads; k++) {
        pthread_t th;
        if (pthread_create(&th, &attr, worker_main, (void *)(intptr_t)k) != 0)
            break;
        n_started++;
    }
    pthread_attr_destroy(&attr);
}

void eh_parallel_for(int64_t n, int64_t grain, eh_range_fn fn, void *ctx)
{
    if (n <= 0)
        return;
    if (grain < 1)
        grain = 1;
    int threads = eh_num_threads();
    if (in_worker || threads == 1 || n <= grain) {
        fn(ctx, 0, n, 0);
        return;
    }
    pthread_mutex_lock(&job_lock);
    pthread_mutex_lock(&lock);
    if (n_started == 0 && threads > 1)
        start_workers();
    int64_t parts = (int64_t)(n_started + 1) * 4; /* a few chunks per thread balance load */
    int64_t chunk = (n + parts - 1) / parts;
    if (chunk < grain)
        chunk = grain;
    job.fn = fn;
    job.ctx = ctx;
    job.n = n;
    job.chunk = chunk;
    job.next = 0;
    job.pending = (int)((n + chunk - 1) / chunk);
    job.generation++;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);

    in_worker = 1;
    run_chunks(0);
    in_worker = 0;

    pthread_mutex_lock(&lock);
    while (job.pending > 0)
        pthread_cond_wait(&done, &lock);
    job.fn = NULL;
    pthread_mutex_unlock(&lock);
    pthread_mutex_unlock(&job_lock);
}
