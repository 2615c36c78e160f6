/* lt-cuda-emulation.cc: CUDA's runtime and execution model on the host
 *
 * See cuda_runtime.h. A launch runs its blocks one after another on the
 * caller's thread. The threads of a block whose threads meet (a
 * cooperative launch) are fibers scheduled in turn: each runs until it
 * reaches __syncthreads(), a warp shuffle or its end, and a barrier opens
 * once every thread still running has reached it, as on a GPU. Everything
 * is deterministic, and no host thread is involved.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <mutex>
#include <string>
#include <vector>

#include "cuda_runtime.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define LT_EMULATION_ASAN 1
#endif

static thread_local uint3 thread_idx;
static thread_local uint3 block_idx;
static thread_local uint3 block_dim;
static thread_local uint3 grid_dim;

uint3 &
lt_cuda_emulation_thread_idx (void)
{
  return thread_idx;
}

uint3 &
lt_cuda_emulation_block_idx (void)
{
  return block_idx;
}

uint3 &
lt_cuda_emulation_block_dim (void)
{
  return block_dim;
}

uint3 &
lt_cuda_emulation_grid_dim (void)
{
  return grid_dim;
}

static uint3
to_uint3 (dim3 d)
{
  return uint3 { d.x, d.y, d.z };
}

namespace
{

const int max_threads_per_block = 1024;
const size_t max_shuffle_size = 16;
/* Room for a kernel's frames, AddressSanitizer's red zones included. */
const size_t fiber_stack_size = 256 * 1024;

enum class State
{
  RUNNABLE,
  AT_BLOCK_BARRIER,
  AT_WARP_BARRIER,
  DONE,
};

/* A saved execution context. On x86-64, the stack pointer of a stack
 * holding the callee-saved registers (switch_context ()): switching costs a
 * few instructions, where swapcontext () makes two system calls for the
 * signal mask, which no kernel thread changes. Elsewhere, a ucontext. */
struct Context
{
#if defined(__x86_64__)
  void *sp = nullptr;
#else
  ucontext_t uc;
#endif
};

struct Fiber
{
  Context context;
  bool started = false;  /* its stack holds fiber_main () */
  void *stack = nullptr;
  uint3 index;
  State state = State::DONE;
  void *fake_stack = nullptr;
};

struct Warp
{
  unsigned char slots[32][max_shuffle_size];
  bool sent[32];
};

/* A cooperative block being run, on the launching thread. */
struct Block
{
  std::vector<Fiber> fibers;  /* kept from block to block, and launch to launch */
  Context scheduler;
  const void *scheduler_stack = nullptr;
  size_t scheduler_stack_size = 0;
  void *scheduler_fake_stack = nullptr;
  const std::function<void ()> *body = nullptr;
  int n_threads = 0;
  int current = -1;
  Warp warps[max_threads_per_block / 32];
};

thread_local Block *running = nullptr;
/* Set while the caller runs a block's threads one after another. */
thread_local bool serial = false;

void
meet_in_serial (const char *what)
{
  fprintf (stderr, "CUDA emulation: %s in a kernel launched with LT_CUDA_LAUNCH, whose threads "
           "run one after another; launch it with LT_CUDA_LAUNCH_COOPERATIVE\n", what);
  abort ();
}

/* The runtime's error state: the last error, which cudaGetLastError ()
 * reads and clears, and a sticky one (a kernel that faulted), which every
 * call returns from the first synchronising call after the fault on, as
 * a GPU's does, and nothing clears. */
cudaError_t last_error = cudaSuccess;
cudaError_t pending_fault = cudaSuccess;
cudaError_t sticky_error = cudaSuccess;
long launches = 0;
std::mutex error_lock;

/* Faults the tests asked for (lt_cuda_emulation_inject_fault ()). */
struct Fault
{
  std::string call;
  int successes;
  cudaError_t error;
};
std::vector<Fault> faults;

cudaError_t
set_error (cudaError_t error)
{
  std::lock_guard<std::mutex> held (error_lock);

  if (error != cudaSuccess)
    last_error = error;
  return error;
}

/* The error an injected fault gives this call of @call, or cudaSuccess. */
cudaError_t
injected (const char *call)
{
  std::lock_guard<std::mutex> held (error_lock);

  for (auto fault = faults.begin (); fault != faults.end (); fault++)
    if (fault->call == call)
      {
        cudaError_t error = fault->error;

        if (fault->successes-- > 0)
          return cudaSuccess;
        faults.erase (fault);
        return error;
      }
  return cudaSuccess;
}

/* Called first by every call of the runtime that waits for the device:
 * a fault a kernel met since becomes sticky now. */
cudaError_t
synchronising_call (void)
{
  std::lock_guard<std::mutex> held (error_lock);

  if (pending_fault != cudaSuccess && sticky_error == cudaSuccess)
    sticky_error = pending_fault;
  pending_fault = cudaSuccess;
  if (sticky_error != cudaSuccess)
    last_error = sticky_error;
  return sticky_error;
}

cudaError_t
sticky (void)
{
  std::lock_guard<std::mutex> held (error_lock);

  return sticky_error;
}

#if defined(__x86_64__)
/* Saves the callee-saved registers on the current stack and its pointer in
 * *@save, then continues on the stack @load, which a call of this function
 * or start_context () prepared. */
extern "C" void lt_cuda_emulation_switch (void **save, void *load);
asm (".text\n"
     ".p2align 4\n"
     ".hidden lt_cuda_emulation_switch\n"
     ".globl lt_cuda_emulation_switch\n"
     ".type lt_cuda_emulation_switch, @function\n"
     "lt_cuda_emulation_switch:\n"
     "  pushq %rbp\n"
     "  pushq %rbx\n"
     "  pushq %r12\n"
     "  pushq %r13\n"
     "  pushq %r14\n"
     "  pushq %r15\n"
     "  movq %rsp, (%rdi)\n"
     "  movq %rsi, %rsp\n"
     "  popq %r15\n"
     "  popq %r14\n"
     "  popq %r13\n"
     "  popq %r12\n"
     "  popq %rbx\n"
     "  popq %rbp\n"
     "  ret\n"
     ".size lt_cuda_emulation_switch, .-lt_cuda_emulation_switch\n");

void
switch_context (Context *from,
                Context *to)
{
  lt_cuda_emulation_switch (&from->sp, to->sp);
}

/* @context starts @entry, which never returns, on @stack when switched to:
 * six zeroed registers for the switch to pop, then @entry as the return
 * address, then a null one, so that @entry starts as if called, its stack
 * 16-byte aligned. */
void
start_context (Context *context,
               void    *stack,
               size_t   size,
               void   (*entry) (void))
{
  uintptr_t top = ((uintptr_t) stack + size) & ~(uintptr_t) 15;
  void **frame = (void **) (top - 64);

  memset (frame, 0, 64);
  frame[6] = (void *) entry;
  context->sp = frame;
}
#else
void
switch_context (Context *from,
                Context *to)
{
  swapcontext (&from->uc, &to->uc);
}

void
start_context (Context *context,
               void    *stack,
               size_t   size,
               void   (*entry) (void))
{
  getcontext (&context->uc);
  context->uc.uc_stack.ss_sp = stack;
  context->uc.uc_stack.ss_size = size;
  context->uc.uc_link = nullptr;
  makecontext (&context->uc, entry, 0);
}
#endif

/* From the running fiber back to the scheduler; returns when the
 * scheduler resumes it. */
void
yield_to_scheduler (Block *block)
{
#ifdef LT_EMULATION_ASAN
  __sanitizer_start_switch_fiber (&block->fibers[block->current].fake_stack,
                                  block->scheduler_stack, block->scheduler_stack_size);
#endif
  switch_context (&block->fibers[block->current].context, &block->scheduler);
#ifdef LT_EMULATION_ASAN
  /* block->fibers may have grown (and moved) in between. */
  __sanitizer_finish_switch_fiber (block->fibers[block->current].fake_stack, nullptr, nullptr);
#endif
}

/* A fiber's life: the body of one thread of a block, for every block of
 * every cooperative launch on this host thread. */
void
fiber_main (void)
{
  Block *block = running;

#ifdef LT_EMULATION_ASAN
  __sanitizer_finish_switch_fiber (nullptr, &block->scheduler_stack,
                                   &block->scheduler_stack_size);
#endif
  for (;;)
    {
      (*block->body) ();
      block->fibers[block->current].state = State::DONE;
      yield_to_scheduler (block);
    }
}

/* From the scheduler into fiber @i, until it yields. */
void
resume (Block *block,
        int    i)
{
  Fiber *fiber = &block->fibers[i];

  block->current = i;
  thread_idx = fiber->index;
#ifdef LT_EMULATION_ASAN
  __sanitizer_start_switch_fiber (&block->scheduler_fake_stack, fiber->stack, fiber_stack_size);
#endif
  switch_context (&block->scheduler, &fiber->context);
#ifdef LT_EMULATION_ASAN
  __sanitizer_finish_switch_fiber (block->scheduler_fake_stack, nullptr, nullptr);
#endif
  block->current = -1;
}

/* Opens what every running thread waits at: a warp's barrier once all of
 * its running lanes are there, else the block's once all running threads
 * are. Returns whether any thread can go on. */
bool
open_barriers (Block *block)
{
  bool opened = false;
  bool all_at_block = true;
  int running_threads = 0;

  for (int w = 0; w * 32 < block->n_threads; w++)
    {
      bool complete = true, waiting = false;

      for (int i = w * 32; i < block->n_threads && i < w * 32 + 32; i++)
        {
          State state = block->fibers[i].state;

          if (state == State::AT_WARP_BARRIER)
            waiting = true;
          else if (state != State::DONE)
            complete = false;
        }
      if (waiting && complete)
        {
          for (int i = w * 32; i < block->n_threads && i < w * 32 + 32; i++)
            if (block->fibers[i].state == State::AT_WARP_BARRIER)
              block->fibers[i].state = State::RUNNABLE;
          opened = true;
        }
    }
  if (opened)
    return true;
  for (int i = 0; i < block->n_threads; i++)
    {
      State state = block->fibers[i].state;

      if (state != State::DONE)
        running_threads++;
      if (state != State::DONE && state != State::AT_BLOCK_BARRIER)
        all_at_block = false;
    }
  if (running_threads == 0 || !all_at_block)
    return false;
  for (int i = 0; i < block->n_threads; i++)
    if (block->fibers[i].state == State::AT_BLOCK_BARRIER)
      block->fibers[i].state = State::RUNNABLE;
  return true;
}

/* @fiber to run the block's body from the top: started on its stack the
 * first time, else back at the top of fiber_main ()'s loop. */
void
prepare (Fiber *fiber)
{
  if (!fiber->started)
    {
      start_context (&fiber->context, fiber->stack, fiber_stack_size, fiber_main);
      fiber->started = true;
    }
  fiber->state = State::RUNNABLE;
}

void
run_block (Block *block)
{
  for (int i = 0; i < block->n_threads; i++)
    prepare (&block->fibers[i]);
  memset (block->warps, 0, sizeof block->warps);

  for (;;)
    {
      bool ran = false;

      for (int i = 0; i < block->n_threads; i++)
        if (block->fibers[i].state == State::RUNNABLE)
          {
            resume (block, i);
            ran = true;
          }
      if (ran)
        continue;
      if (!open_barriers (block))
        break;
    }
  for (int i = 0; i < block->n_threads; i++)
    if (block->fibers[i].state != State::DONE)
      {
        fprintf (stderr, "CUDA emulation: the threads of block (%u, %u, %u) wait at different "
                 "barriers (__syncthreads() or a warp shuffle reached by some threads only)\n",
                 block_idx.x, block_idx.y, block_idx.z);
        abort ();
      }
}

Block *
get_block (int n_threads)
{
  /* Kept for the thread's life: fibers' stacks are reused. */
  static thread_local Block *block = nullptr;

  if (block == nullptr)
    block = new Block;
  while ((int) block->fibers.size () < n_threads)
    {
      Fiber fiber;

      fiber.stack = mmap (nullptr, fiber_stack_size, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (fiber.stack == MAP_FAILED)
        {
          perror ("CUDA emulation: a fiber's stack");
          abort ();
        }
      block->fibers.push_back (fiber);
    }
  return block;
}

/* The running fiber waits at @state until the scheduler opens it. */
void
wait_at (State state)
{
  Block *block = running;

  block->fibers[block->current].state = state;
  yield_to_scheduler (block);
}

} /* namespace */

static void
run_serial (dim3                          grid,
            dim3                          block,
            const std::function<void ()> &body)
{
  serial = true;
  for (unsigned int bz = 0; bz < grid.z; bz++)
    for (unsigned int by = 0; by < grid.y; by++)
      for (unsigned int bx = 0; bx < grid.x; bx++)
        for (unsigned int z = 0; z < block.z; z++)
          for (unsigned int y = 0; y < block.y; y++)
            for (unsigned int x = 0; x < block.x; x++)
              {
                block_idx = uint3 { bx, by, bz };
                thread_idx = uint3 { x, y, z };
                body ();
              }
  serial = false;
}

void
lt_cuda_emulation_run (dim3                          grid,
                       dim3                          block,
                       bool                          cooperative,
                       const std::function<void ()> &body)
{
  int n_threads = (int) (block.x * block.y * block.z);
  Block *state;

  if (n_threads <= 0 || n_threads > max_threads_per_block || grid.x == 0 || grid.y == 0
      || grid.z == 0)
    {
      set_error (cudaErrorInvalidConfiguration);
      return;
    }
  /* A context that met a fault runs nothing more. */
  if (sticky () != cudaSuccess)
    {
      set_error (sticky ());
      return;
    }
  {
    cudaError_t fault = injected ("launch");
    std::lock_guard<std::mutex> held (error_lock);

    launches++;
    /* The kernel faults: the launch itself succeeded, and the fault shows
     * at the next call that waits for the device. */
    if (fault != cudaSuccess)
      {
        pending_fault = fault;
        return;
      }
  }
  grid_dim = to_uint3 (grid);
  block_dim = to_uint3 (block);
  if (!cooperative)
    {
      run_serial (grid, block, body);
      return;
    }

  state = get_block (n_threads);
  state->body = &body;
  state->n_threads = n_threads;
  for (int i = 0; i < n_threads; i++)
    state->fibers[i].index = uint3 { (unsigned) i % block.x, (unsigned) i / block.x % block.y,
                                     (unsigned) i / (block.x * block.y) };
  running = state;
  for (unsigned int z = 0; z < grid.z; z++)
    for (unsigned int y = 0; y < grid.y; y++)
      for (unsigned int x = 0; x < grid.x; x++)
        {
          block_idx = uint3 { x, y, z };
          run_block (state);
        }
  running = nullptr;
}

void
lt_cuda_emulation_syncthreads (void)
{
  if (serial || running == nullptr)
    meet_in_serial ("__syncthreads()");
  wait_at (State::AT_BLOCK_BARRIER);
}

void
lt_cuda_emulation_shuffle_down (const void *value,
                                void       *result,
                                size_t      size,
                                unsigned    delta,
                                int         width)
{
  Block *block = running;
  int index, lane, segment, source;
  Warp *warp;

  if (serial || block == nullptr)
    meet_in_serial ("a warp shuffle");
  if (size > max_shuffle_size)
    abort ();
  index = block->current;
  lane = index % 32;
  warp = &block->warps[index / 32];
  segment = width > 0 && width <= 32 ? width : 32;
  source = lane + (int) delta;

  memcpy (warp->slots[lane], value, size);
  warp->sent[lane] = true;
  wait_at (State::AT_WARP_BARRIER);
  /* Within the caller's segment, from a lane that took part. */
  if (source / segment == lane / segment && source < 32 && warp->sent[source])
    memcpy (result, warp->slots[source], size);
  wait_at (State::AT_WARP_BARRIER);
  warp->sent[lane] = false;
}

/* The runtime */

extern "C" {

cudaError_t
cudaRuntimeGetVersion (int *version)
{
  *version = 13000;
  return cudaSuccess;
}

cudaError_t
cudaDriverGetVersion (int *version)
{
  *version = 13000;
  return cudaSuccess;
}

cudaError_t
cudaGetDeviceCount (int *count)
{
  *count = 1;
  return cudaSuccess;
}

cudaError_t
cudaDeviceGetAttribute (int            *value,
                        cudaDeviceAttr  attribute,
                        int             device)
{
  if (device != 0 || attribute != cudaDevAttrMemoryPoolsSupported)
    return set_error (cudaErrorInvalidValue);
  *value = 1;
  return cudaSuccess;
}

cudaError_t
cudaGetDeviceProperties (cudaDeviceProp *properties,
                         int             device)
{
  if (device != 0)
    return set_error (cudaErrorInvalidValue);
  memset (properties, 0, sizeof *properties);
  snprintf (properties->name, sizeof properties->name, "libtensor's CUDA emulation on the host");
  properties->totalGlobalMem = (size_t) 1 << 32;
  properties->major = 9;
  properties->minor = 0;
  properties->multiProcessorCount = 1;
  properties->maxThreadsPerBlock = max_threads_per_block;
  properties->warpSize = 32;
  return cudaSuccess;
}

cudaError_t
cudaSetDevice (int device)
{
  if (sticky () != cudaSuccess)
    return set_error (sticky ());
  return device == 0 ? cudaSuccess : set_error (cudaErrorInvalidValue);
}

cudaError_t
cudaGetLastError (void)
{
  std::lock_guard<std::mutex> held (error_lock);
  cudaError_t error = last_error;

  last_error = sticky_error;
  return error;
}

cudaError_t
cudaPeekAtLastError (void)
{
  std::lock_guard<std::mutex> held (error_lock);

  return last_error;
}

const char *
cudaGetErrorString (cudaError_t error)
{
  switch (error)
    {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorInsufficientDriver:
      return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoDevice:
      return "no CUDA-capable device is detected";
    case cudaErrorMisalignedAddress:
      return "misaligned address";
    case cudaErrorLaunchFailure:
      return "unspecified launch failure";
    }
  return "unknown error";
}

const char *
cudaGetErrorName (cudaError_t error)
{
  switch (error)
    {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration:
      return "cudaErrorInvalidConfiguration";
    case cudaErrorInsufficientDriver:
      return "cudaErrorInsufficientDriver";
    case cudaErrorNoDevice:
      return "cudaErrorNoDevice";
    case cudaErrorMisalignedAddress:
      return "cudaErrorMisalignedAddress";
    case cudaErrorLaunchFailure:
      return "cudaErrorLaunchFailure";
    }
  return "cudaErrorUnknown";
}

/* Device memory: host memory on cudaMalloc's 256-byte boundaries, unless
 * @error (a sticky error, an injected fault) says otherwise. */
static cudaError_t
allocate (void        **pointer,
          size_t        size,
          cudaError_t   error)
{
  if (error != cudaSuccess)
    return set_error (error);
  *pointer = aligned_alloc (256, (size + 255) / 256 * 256 + (size == 0 ? 256 : 0));
  return *pointer != nullptr ? cudaSuccess : set_error (cudaErrorMemoryAllocation);
}

cudaError_t
cudaMalloc (void  **pointer,
            size_t  size)
{
  cudaError_t error = synchronising_call ();

  return allocate (pointer, size, error != cudaSuccess ? error : injected ("cudaMalloc"));
}

cudaError_t
cudaFree (void *pointer)
{
  cudaError_t error = synchronising_call ();

  /* A GPU's memory is lost with its context; the host's is freed all the
   * same, so that LeakSanitizer watches the backend, not the emulation. */
  free (pointer);
  return error != cudaSuccess ? set_error (error) : cudaSuccess;
}

/* The stream-ordered allocator, on the one stream the emulation has. */
cudaError_t
cudaMallocAsync (void         **pointer,
                 size_t         size,
                 cudaStream_t   stream)
{
  cudaError_t error = sticky ();

  (void) stream;
  return allocate (pointer, size, error != cudaSuccess ? error : injected ("cudaMallocAsync"));
}

cudaError_t
cudaFreeAsync (void         *pointer,
               cudaStream_t  stream)
{
  (void) stream;
  free (pointer);
  return sticky () != cudaSuccess ? set_error (sticky ()) : cudaSuccess;
}

cudaError_t
cudaDeviceGetDefaultMemPool (cudaMemPool_t *pool,
                             int            device)
{
  static int the_pool;

  if (device != 0)
    return set_error (cudaErrorInvalidValue);
  *pool = (cudaMemPool_t) &the_pool;
  return cudaSuccess;
}

cudaError_t
cudaMemPoolSetAttribute (cudaMemPool_t    pool,
                         cudaMemPoolAttr  attribute,
                         void            *value)
{
  (void) pool;
  (void) value;
  return attribute == cudaMemPoolAttrReleaseThreshold ? cudaSuccess
                                                       : set_error (cudaErrorInvalidValue);
}

cudaError_t
cudaMemPoolTrimTo (cudaMemPool_t pool,
                   size_t        keep)
{
  (void) pool;
  (void) keep;
  return cudaSuccess;
}

cudaError_t
cudaMemcpy (void           *dst,
            const void     *src,
            size_t          size,
            cudaMemcpyKind  kind)
{
  cudaError_t error = synchronising_call ();

  (void) kind;
  if (error == cudaSuccess)
    error = injected ("cudaMemcpy");
  if (error != cudaSuccess)
    return set_error (error);
  if (size > 0)
    memmove (dst, src, size);
  return cudaSuccess;
}

cudaError_t
cudaMemset (void   *pointer,
            int     value,
            size_t  size)
{
  cudaError_t error = synchronising_call ();

  if (error != cudaSuccess)
    return set_error (error);
  memset (pointer, value, size);
  return cudaSuccess;
}

cudaError_t
cudaMemsetAsync (void         *pointer,
                 int           value,
                 size_t        size,
                 cudaStream_t  stream)
{
  (void) stream;
  if (sticky () != cudaSuccess)
    return set_error (sticky ());
  memset (pointer, value, size);
  return cudaSuccess;
}

cudaError_t
cudaDeviceSynchronize (void)
{
  cudaError_t error = synchronising_call ();

  return error != cudaSuccess ? set_error (error) : cudaSuccess;
}

void
lt_cuda_emulation_inject_fault (const char  *call,
                                int          successes,
                                cudaError_t  error)
{
  std::lock_guard<std::mutex> held (error_lock);

  faults.push_back (Fault { call, successes, error });
}

void
lt_cuda_emulation_reset (void)
{
  std::lock_guard<std::mutex> held (error_lock);

  faults.clear ();
  last_error = pending_fault = sticky_error = cudaSuccess;
}

long
lt_cuda_emulation_launch_count (void)
{
  std::lock_guard<std::mutex> held (error_lock);

  return launches;
}

} /* extern "C" */
