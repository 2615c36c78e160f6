/* lt-cpu-backend.c: host memory and the CPU kernels' entry points
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <string.h>

#include "lt-cpu-private.h"
#include "lt-memory-private.h"
#include "lt-tsan-private.h"

#ifdef HAVE_MMAP
#include <sys/mman.h>
#endif

/* Host memory comes in two sizes, told apart by the byte count, which the
 * storage passes back when it frees.
 *
 * Small blocks come from malloc (calloc when zeroed), aligned by hand
 * inside a slightly larger block whose start is kept just below the
 * pointer handed out.
 *
 * Large blocks are mapped directly, aligned to 2 MiB and marked for
 * transparent huge pages, as NumPy does (and PyTorch with
 * THP_MEM_ALLOC_ENABLE): fresh anonymous pages are zero, and a 64 MiB tensor
 * then takes 32 page faults instead of 16,384. First-touch faults dominate
 * copies into new tensors on virtual machines, where one can cost over
 * 10 microseconds (bench/NOTES.md).
 *
 * The few large blocks freed last are kept mapped, to be handed out again
 * to the next request of the same size that does not need zeros (the result of a
 * copy or a pointwise op, which the kernel overwrites in full): a loop
 * making a big temporary each pass then neither faults nor zeroes.
 * Zeroed requests always get fresh pages, which the kernel zeroes. */

#define HUGE_PAGE_SIZE ((gsize) 2 << 20)
#define LARGE_BLOCK_SIZE HUGE_PAGE_SIZE

#ifdef HAVE_MMAP

/* At most this many blocks and bytes stay cached, blocks of at most
 * CACHE_MAX_BLOCK each. */
#define CACHE_SLOTS 8
#define CACHE_MAX_BYTES ((gsize) 256 << 20)
#define CACHE_MAX_BLOCK ((gsize) 128 << 20)

typedef struct
{
  gpointer start;
  gsize length;
} CachedBlock;

/* Process-wide, as the memory is: a block freed by one thread may serve an
 * allocation on another. */
static GMutex cache_lock;
static CachedBlock cache[CACHE_SLOTS];
static guint n_cached;
static gsize cached_bytes;

static gsize
mapped_length (gsize nbytes)
{
  return (nbytes + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);
}

static gpointer
take_cached (gsize length)
{
  gpointer start = NULL;

  /* The most recently freed first: its pages are the likeliest to still be
   * in cache. */
  lt_mutex_lock (&cache_lock);
  for (guint i = n_cached; i-- > 0;)
    if (cache[i].length == length)
      {
        start = cache[i].start;
        memmove (&cache[i], &cache[i + 1], (n_cached - i - 1) * sizeof (CachedBlock));
        n_cached--;
        cached_bytes -= length;
        break;
      }
  lt_mutex_unlock (&cache_lock);
  return start;
}

/* Keeps a freed block for the next request of its size. Where the cache is
 * full, the blocks freed longest ago make room and are unmapped: a program
 * that once freed big blocks of other sizes and now loops over one size
 * would otherwise map, fault in and unmap that size on every pass (bmm of
 * 4 x 512³ took 4.2 ms instead of 3.6 behind a full cache). */
static gboolean
put_cached (gpointer start,
            gsize    length)
{
  CachedBlock evicted[CACHE_SLOTS];
  guint n_evicted = 0;

  if (length > CACHE_MAX_BLOCK)
    return FALSE;

  lt_mutex_lock (&cache_lock);
  while (n_cached == CACHE_SLOTS || cached_bytes + length > CACHE_MAX_BYTES)
    {
      evicted[n_evicted++] = cache[0];
      cached_bytes -= cache[0].length;
      n_cached--;
      memmove (&cache[0], &cache[1], n_cached * sizeof (CachedBlock));
    }
  cache[n_cached].start = start;
  cache[n_cached].length = length;
  n_cached++;
  cached_bytes += length;
  lt_mutex_unlock (&cache_lock);

  for (guint i = 0; i < n_evicted; i++)
    munmap (evicted[i].start, evicted[i].length);
  return TRUE;
}

static gpointer
alloc_mapped (gsize    nbytes,
              gboolean zeroed)
{
  gsize length, slack;
  guint8 *mapped, *start;

  if (nbytes > G_MAXSIZE - 2 * HUGE_PAGE_SIZE)
    return NULL;
  length = mapped_length (nbytes);

  if (!zeroed)
    {
      start = take_cached (length);
      if (start != NULL)
        return start;
    }

  /* Map a huge page more than needed, then give back the unaligned ends. */
  mapped = mmap (NULL, length + HUGE_PAGE_SIZE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
    return NULL;
  start = (guint8 *) (((guintptr) mapped + HUGE_PAGE_SIZE - 1) & ~(guintptr) (HUGE_PAGE_SIZE - 1));
  slack = (gsize) (start - mapped);
  if (slack > 0)
    munmap (mapped, slack);
  munmap (start + length, HUGE_PAGE_SIZE - slack);

#ifdef MADV_HUGEPAGE
  /* Only advice: where huge pages are off, the mapping still works. */
  madvise (start, length, MADV_HUGEPAGE);
#endif

  return start;
}

static void
free_mapped (gpointer data,
             gsize    nbytes)
{
  gsize length = mapped_length (nbytes);

  if (!put_cached (data, length))
    munmap (data, length);
}

#endif

/* Whether the CPU has all of x86-64-v@level (3 or 4), asked once into
 * @answer: 0 not asked yet, then 1 + the answer. Without targets
 * (lt-cpu-private.h) every function is built for the baseline and may
 * run anywhere: TRUE. */
static gboolean
cpu_has_level (gsize *answer,
               int    level)
{
#ifdef LT_CPU_FMA_BY_CPU
  if (g_once_init_enter (answer))
    {
      gboolean has;

      __builtin_cpu_init ();
      has = level == 4 ? __builtin_cpu_supports ("x86-64-v4") : __builtin_cpu_supports ("x86-64-v3");
      g_once_init_leave (answer, 1 + (has != 0));
    }
  return *answer == 2;
#else
  (void) answer;
  (void) level;
  return TRUE;
#endif
}

gboolean
lt_cpu_has_fma (void)
{
  static gsize answer = 0;

  return cpu_has_level (&answer, 3);
}

gboolean
lt_cpu_has_avx512 (void)
{
  static gsize answer = 0;

  return cpu_has_level (&answer, 4);
}

static gpointer
lt_cpu_alloc (const LtBackend *self,
              gsize            nbytes,
              gboolean         zeroed,
              GError         **error)
{
  guint8 *raw;
  guintptr aligned;

  if (G_UNLIKELY (lt_memory_injected_failure ()))
    return NULL;

#ifdef HAVE_MMAP
  if (nbytes >= LARGE_BLOCK_SIZE)
    return alloc_mapped (nbytes, zeroed);
#endif

  if (nbytes > G_MAXSIZE - 2 * LT_STORAGE_ALIGNMENT)
    return NULL;

  raw = zeroed ? g_try_malloc0 (nbytes + LT_STORAGE_ALIGNMENT + sizeof (gpointer))
               : g_try_malloc (nbytes + LT_STORAGE_ALIGNMENT + sizeof (gpointer));
  if (raw == NULL)
    return NULL;

  aligned = ((guintptr) raw + sizeof (gpointer) + LT_STORAGE_ALIGNMENT - 1)
            & ~(guintptr) (LT_STORAGE_ALIGNMENT - 1);
  ((gpointer *) aligned)[-1] = raw;

  return (gpointer) aligned;
}

static void
lt_cpu_free (const LtBackend *self,
             gpointer         data,
             gsize            nbytes)
{
  if (data == NULL)
    return;

#ifdef HAVE_MMAP
  if (nbytes >= LARGE_BLOCK_SIZE)
    {
      free_mapped (data, nbytes);
      return;
    }
#endif
  g_free (((gpointer *) data)[-1]);
}

/* The CPU backend's memory is host memory: transfers are copies. */
static gboolean
lt_cpu_upload (const LtBackend *self,
               gpointer         dst,
               gsize            dst_offset,
               gconstpointer    src,
               gsize            nbytes,
               GError         **error)
{
  if (nbytes > 0)
    memcpy ((guint8 *) dst + dst_offset, src, nbytes);
  return TRUE;
}

static gboolean
lt_cpu_download (const LtBackend *self,
                 gpointer         dst,
                 gconstpointer    src,
                 gsize            src_offset,
                 gsize            nbytes,
                 GError         **error)
{
  if (nbytes > 0)
    memcpy (dst, (const guint8 *) src + src_offset, nbytes);
  return TRUE;
}

/* Every CPU kernel has finished when it returns. */
static gboolean
lt_cpu_synchronize (const LtBackend *self,
                    GError         **error)
{
  return TRUE;
}

static gboolean
cpu_random_fill (const LtBackend      *self,
                 guint                 ndim,
                 const gint64         *sizes,
                 const LtOperand      *dst,
                 const LtOperand      *probabilities,
                 const LtRandomParams *params,
                 guint64               seed,
                 guint64               counter,
                 GError              **error)
{
  lt_cpu_random_fill (ndim, sizes, dst, probabilities, params, seed, counter);
  return TRUE;
}

static const LtBackend cpu_backend = {
  .name = "cpu",
  .device_type = LT_DEVICE_TYPE_CPU,
  .alloc = lt_cpu_alloc,
  .free = lt_cpu_free,
  .upload = lt_cpu_upload,
  .download = lt_cpu_download,
  .copy = lt_cpu_copy,
  .fill = lt_cpu_fill,
  .random = lt_cpu_random,
  .random_fill = cpu_random_fill,
  .arange = lt_cpu_arange,
  .linspace = lt_cpu_linspace,
  .synchronize = lt_cpu_synchronize,
  .pointwise = &lt_cpu_pointwise_kernels,
  .reduce = &lt_cpu_reduce_kernels,
  .linalg = &lt_cpu_linalg_kernels,
  .index = &lt_cpu_index_kernels,
};

const LtBackend *
lt_cpu_backend_get (void)
{
  return &cpu_backend;
}
