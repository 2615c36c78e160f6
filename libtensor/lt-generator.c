/* lt-generator.c: a seedable, counter-based random number generator
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include "lt-generator-private.h"
#include "lt-tsan-private.h"

/**
 * LtGenerator:
 *
 * The source of the numbers of lt_tensor_new_rand() and lt_tensor_new_randn().
 *
 * A generator is a seed and an offset. Each random tensor takes the next
 * range of Philox4x32-10 counters from the offset, so the same seed gives the
 * same tensors in the same order on every machine, and a generator may be
 * shared between threads.
 */
struct _LtGenerator
{
  GObject parent_instance;

  GMutex lock;
  guint64 seed;
  guint64 offset;
};

enum
{
  PROP_0,
  PROP_SEED,
  PROP_OFFSET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (LtGenerator, lt_generator, G_TYPE_OBJECT)

static void
lt_generator_finalize (GObject *object)
{
  LtGenerator *self = LT_GENERATOR (object);

  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (lt_generator_parent_class)->finalize (object);
}

static void
lt_generator_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  LtGenerator *self = LT_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_SEED:
      g_value_set_uint64 (value, lt_generator_get_seed (self));
      break;
    case PROP_OFFSET:
      g_value_set_uint64 (value, lt_generator_get_offset (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_generator_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  LtGenerator *self = LT_GENERATOR (object);

  switch (prop_id)
    {
    case PROP_SEED:
      lt_generator_set_seed (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lt_generator_class_init (LtGeneratorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lt_generator_finalize;
  object_class->get_property = lt_generator_get_property;
  object_class->set_property = lt_generator_set_property;

  /**
   * LtGenerator:seed:
   *
   * The key of the generator. Setting it starts the sequence over.
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * LtGenerator:offset:
   *
   * How many blocks of four 32-bit words have been used since the seed was set.
   */
  properties[PROP_OFFSET] =
    g_param_spec_uint64 ("offset", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lt_generator_init (LtGenerator *self)
{
  g_mutex_init (&self->lock);
}

/**
 * lt_generator_new:
 * @seed: the seed
 *
 * Creates a generator whose sequence is determined by @seed alone.
 *
 * Returns: (transfer full): the new generator
 */
LtGenerator *
lt_generator_new (guint64 seed)
{
  LtGenerator *self = g_object_new (LT_TYPE_GENERATOR, NULL);

  self->seed = seed;
  return self;
}

/**
 * lt_generator_get_seed:
 * @self: an #LtGenerator
 *
 * Returns: the seed
 */
guint64
lt_generator_get_seed (LtGenerator *self)
{
  guint64 seed;

  g_return_val_if_fail (LT_IS_GENERATOR (self), 0);

  lt_mutex_lock (&self->lock);
  seed = self->seed;
  lt_mutex_unlock (&self->lock);

  return seed;
}

/**
 * lt_generator_set_seed:
 * @self: an #LtGenerator
 * @seed: the new seed
 *
 * Sets the seed and starts the sequence over, like PyTorch's `manual_seed()`.
 */
void
lt_generator_set_seed (LtGenerator *self,
                       guint64      seed)
{
  g_return_if_fail (LT_IS_GENERATOR (self));

  lt_mutex_lock (&self->lock);
  self->seed = seed;
  self->offset = 0;
  lt_mutex_unlock (&self->lock);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFSET]);
}

/**
 * lt_generator_get_offset:
 * @self: an #LtGenerator
 *
 * Returns: the number of Philox blocks used since the seed was set
 */
guint64
lt_generator_get_offset (LtGenerator *self)
{
  guint64 offset;

  g_return_val_if_fail (LT_IS_GENERATOR (self), 0);

  lt_mutex_lock (&self->lock);
  offset = self->offset;
  lt_mutex_unlock (&self->lock);

  return offset;
}

void
lt_generator_take_blocks (LtGenerator *self,
                          guint64      n_blocks,
                          guint64     *out_seed,
                          guint64     *out_offset)
{
  lt_mutex_lock (&self->lock);
  *out_seed = self->seed;
  *out_offset = self->offset;
  self->offset += n_blocks;
  lt_mutex_unlock (&self->lock);

  /* Not notifying offset: notify from arbitrary threads would surprise
   * main-loop code, and the property is for inspection. */
}
