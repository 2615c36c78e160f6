/* lt-cpu-backend.c: host memory and the CPU kernels' entry points
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-cpu-private.h"

#ifdef HAVE_MMAP
#include <sys/mman.h>
#endif

/* Host memory comes in two sizes.
 *
 * Small blocks come from calloc (zeroed by the allocator, which only has to
 * clear what it reuses), aligned by hand inside a slightly larger block.
 *
 * Large blocks are mapped directly, aligned to 2 MiB and marked for
 * transparent huge pages, as NumPy does (and PyTorch with
 * THP_MEM_ALLOC_ENABLE): fresh anonymous pages are zero, and a 64 MiB tensor
 * then takes 32 page faults instead of 16,384. First-touch faults dominate
 * copies into new tensors on virtual machines, where one can cost over
 * 10 microseconds (bench/NOTES.md).
 *
 * Two words just below the pointer handed out say which kind of block it
 * is: the mapping's length (0 for a calloc block) and where the block
 * starts. */

#define HUGE_PAGE_SIZE ((gsize) 2 << 20)
#define LARGE_BLOCK_SIZE HUGE_PAGE_SIZE

typedef struct
{
  gsize mapped_length;  /* 0: @start came from calloc */
  gpointer start;
} BlockHeader;

G_STATIC_ASSERT (sizeof (BlockHeader) <= LT_STORAGE_ALIGNMENT);

static BlockHeader *
block_header (gpointer data)
{
  return (BlockHeader *) data - 1;
}

#ifdef HAVE_MMAP
static gpointer
alloc_mapped (gsize nbytes)
{
  gsize length, slack;
  guint8 *mapped, *start;

  if (nbytes > G_MAXSIZE - 2 * HUGE_PAGE_SIZE - LT_STORAGE_ALIGNMENT)
    return NULL;
  length = (nbytes + LT_STORAGE_ALIGNMENT + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);

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

  {
    gpointer data = start + LT_STORAGE_ALIGNMENT;

    block_header (data)->mapped_length = length;
    block_header (data)->start = start;
    return data;
  }
}
#endif

static gpointer
lt_cpu_alloc (gsize nbytes)
{
  guint8 *raw;
  guintptr aligned;

#ifdef HAVE_MMAP
  if (nbytes >= LARGE_BLOCK_SIZE)
    return alloc_mapped (nbytes);
#endif

  if (nbytes > G_MAXSIZE - 2 * LT_STORAGE_ALIGNMENT)
    return NULL;

  raw = g_try_malloc0 (nbytes + LT_STORAGE_ALIGNMENT + sizeof (BlockHeader));
  if (raw == NULL)
    return NULL;

  aligned = ((guintptr) raw + sizeof (BlockHeader) + LT_STORAGE_ALIGNMENT - 1)
            & ~(guintptr) (LT_STORAGE_ALIGNMENT - 1);
  block_header ((gpointer) aligned)->mapped_length = 0;
  block_header ((gpointer) aligned)->start = raw;

  return (gpointer) aligned;
}

static void
lt_cpu_free (gpointer data)
{
  BlockHeader *header;

  if (data == NULL)
    return;

  header = block_header (data);
#ifdef HAVE_MMAP
  if (header->mapped_length > 0)
    {
      munmap (header->start, header->mapped_length);
      return;
    }
#endif
  g_free (header->start);
}

static void
lt_cpu_synchronize (void)
{
}

static const LtBackend cpu_backend = {
  .name = "cpu",
  .device_type = LT_DEVICE_TYPE_CPU,
  .alloc = lt_cpu_alloc,
  .free = lt_cpu_free,
  .copy = lt_cpu_copy,
  .fill = lt_cpu_fill,
  .random = lt_cpu_random,
  .random_fill = lt_cpu_random_fill,
  .arange = lt_cpu_arange,
  .linspace = lt_cpu_linspace,
  .synchronize = lt_cpu_synchronize,
  .pointwise = &lt_cpu_pointwise_kernels,
  .reduce = &lt_cpu_reduce_kernels,
  .linalg = &lt_cpu_linalg_kernels,
};

const LtBackend *
lt_cpu_backend_get (void)
{
  return &cpu_backend;
}
