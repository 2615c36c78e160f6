/* lt-npy.c: tensors in NumPy's .npy files
 *
 * A .npy file is the magic "\x93NUMPY", a format version (1.0, 2.0 or 3.0),
 * the length of a header (2 bytes little-endian in 1.0, 4 bytes after),
 * the header itself, a Python dict literal such as
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * padded with spaces and a newline so that the data starts at a multiple
 * of 64 bytes, then the elements in row-major order (column-major with
 * 'fortran_order': True) in the byte order that 'descr' names.
 *
 * Loading checks all of it against the file's size before it reads the
 * data, straight into the tensor's own memory. Saving writes version 1.0 as NumPy does
 * (2.0 for headers too long for it), C order, or Fortran order for tensors
 * laid out that way, so that a transposed tensor is written without a copy.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "lt-dtype-private.h"
#include "lt-error.h"
#include "lt-file-private.h"
#include "lt-i18n-private.h"
#include "lt-io.h"
#include "lt-layout.h"
#include "lt-memory-private.h"
#include "lt-tensor-private.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LENGTH 6
#define NPY_ALIGNMENT 64

/* Element types as NumPy names them, without the byte order. */
static const struct
{
  LtDType dtype;
  char kind;
  guint size;
} npy_types[] = {
  { LT_DTYPE_BOOL, 'b', 1 },
  { LT_DTYPE_UINT8, 'u', 1 },
  { LT_DTYPE_INT8, 'i', 1 },
  { LT_DTYPE_INT16, 'i', 2 },
  { LT_DTYPE_INT32, 'i', 4 },
  { LT_DTYPE_INT64, 'i', 8 },
  { LT_DTYPE_FLOAT16, 'f', 2 },
  { LT_DTYPE_FLOAT32, 'f', 4 },
  { LT_DTYPE_FLOAT64, 'f', 8 },
  { LT_DTYPE_COMPLEX64, 'c', 8 },
  { LT_DTYPE_COMPLEX128, 'c', 16 },
};

/* Saving ------------------------------------------------------------------- */

/* @self's descr ('<f4'), or NULL with @error set for dtypes NumPy lacks. */
static char *
descr_for (LtDType  dtype,
           GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (npy_types); i++)
    if (npy_types[i].dtype == dtype)
      {
        char order = npy_types[i].size == 1              ? '|'
                     : G_BYTE_ORDER == G_LITTLE_ENDIAN ? '<'
                                                         : '>';

        return g_strdup_printf ("%c%c%u", order, npy_types[i].kind, npy_types[i].size);
      }
  g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
               _("%s has no .npy counterpart (NumPy has no such dtype); convert the tensor "
                 "with to_dtype() to float32 first"), lt_dtype_get_name (dtype));
  return NULL;
}

/* The dims of @self in reverse order: the view whose row-major order is
 * @self's column-major (Fortran) order. */
static LtTensor *
reversed_dims (LtTensor *self)
{
  int dims[LT_MAX_DIMS];

  for (guint d = 0; d < self->ndim; d++)
    dims[d] = (int) (self->ndim - 1 - d);
  return lt_tensor_permute (self, dims, self->ndim, NULL);
}

/* The magic, version and header of a .npy file holding @shape of @descr,
 * padded so that the data that follows starts on NPY_ALIGNMENT bytes. */
static GBytes *
make_header (const char   *descr,
             gboolean      fortran_order,
             guint         ndim,
             const gint64 *shape)
{
  g_autoptr (GString) dict = g_string_new (NULL);
  GString *file = g_string_new (NULL);
  gsize length_size, unpadded, header_length;

  g_string_append_printf (dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (", descr,
                          fortran_order ? "True" : "False");
  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (dict, "%s%" G_GINT64_FORMAT, d > 0 ? ", " : "", shape[d]);
  g_string_append (dict, ndim == 1 ? ",), }" : "), }");

  /* Version 1.0 keeps the header length in 2 bytes; 2.0 in 4. */
  length_size = dict->len + NPY_ALIGNMENT < G_MAXUINT16 ? 2 : 4;
  unpadded = NPY_MAGIC_LENGTH + 2 + length_size + dict->len + 1;
  header_length = dict->len + (NPY_ALIGNMENT - unpadded % NPY_ALIGNMENT) % NPY_ALIGNMENT + 1;

  g_string_append_len (file, NPY_MAGIC, NPY_MAGIC_LENGTH);
  g_string_append_c (file, length_size == 2 ? 1 : 2);
  g_string_append_c (file, 0);
  for (gsize i = 0; i < length_size; i++)
    g_string_append_c (file, (char) ((header_length >> (8 * i)) & 0xff));
  g_string_append_len (file, dict->str, dict->len);
  while (file->len % NPY_ALIGNMENT != NPY_ALIGNMENT - 1)
    g_string_append_c (file, ' ');
  g_string_append_c (file, '\n');
  return g_string_free_to_bytes (file);
}

/* The header and the data of @self as a .npy file. */
static gboolean
npy_parts (LtTensor *self,
           GBytes  **header,
           GBytes  **data,
           GError  **error)
{
  g_autofree char *descr = descr_for (lt_tensor_get_dtype (self), error);
  g_autoptr (LtTensor) reversed = NULL;
  gboolean fortran_order;

  if (descr == NULL)
    return FALSE;

  /* A tensor laid out column-major (a transposed matrix, say) is written
   * as it is, with 'fortran_order': True, as NumPy writes such arrays. */
  reversed = reversed_dims (self);
  fortran_order = self->ndim > 1 && !self->is_contiguous && reversed->is_contiguous;
  *data = lt_tensor_to_bytes (fortran_order ? reversed : self, error);
  if (*data == NULL)
    return FALSE;
  *header = make_header (descr, fortran_order, self->ndim, self->sizes);
  return TRUE;
}

/**
 * lt_tensor_to_npy_bytes:
 * @self: an #LtTensor
 * @error: return location for a #GError
 *
 * The contents of a .npy file holding @self, as lt_tensor_save_npy() writes
 * it.
 *
 * Returns: (transfer full): the bytes, or %NULL with @error set as for
 *   lt_tensor_save_npy()
 */
GBytes *
lt_tensor_to_npy_bytes (LtTensor *self,
                        GError  **error)
{
  g_autoptr (GBytes) header = NULL;
  g_autoptr (GBytes) data = NULL;
  gconstpointer header_data, data_data;
  gsize header_size, data_size;
  guint8 *file;

  g_return_val_if_fail (LT_IS_TENSOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!npy_parts (self, &header, &data, error))
    return NULL;
  header_data = g_bytes_get_data (header, &header_size);
  data_data = g_bytes_get_data (data, &data_size);
  file = lt_memory_try_alloc (header_size + data_size, FALSE);
  if (file == NULL)
    {
      g_set_error (error, LT_ERROR, LT_ERROR_OUT_OF_MEMORY,
                   _("to_npy_bytes(): cannot allocate %zu bytes for the file; "
                     "save the tensor to a file with save_npy(), which needs no copy"),
                   header_size + data_size);
      return NULL;
    }
  memcpy (file, header_data, header_size);
  if (data_size > 0)
    memcpy (file + header_size, data_data, data_size);
  return g_bytes_new_take (file, header_size + data_size);
}

/**
 * lt_tensor_save_npy:
 * @self: an #LtTensor
 * @filename: (type filename): where to write
 * @error: return location for a #GError
 *
 * Writes @self to @filename in NumPy's .npy format, which `numpy.load()`
 * reads: any view, on any device (its values are read back to the host).
 * The data is written in row-major order, or in column-major order with
 * `fortran_order` set when @self is laid out that way (a transposed
 * matrix), so neither needs a copy first. bfloat16 has no NumPy dtype and
 * is refused.
 *
 * The file is written beside @filename under a temporary name and renamed
 * into place once complete: a failure leaves any previous file intact.
 *
 * Returns: %TRUE on success; %FALSE with @error set: %LT_ERROR_DTYPE for
 *   bfloat16, a #GFileError when the file cannot be written
 */
gboolean
lt_tensor_save_npy (LtTensor   *self,
                    const char *filename,
                    GError    **error)
{
  g_autoptr (GBytes) header = NULL;
  g_autoptr (GBytes) data = NULL;

  g_return_val_if_fail (LT_IS_TENSOR (self), FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!npy_parts (self, &header, &data, error))
    return FALSE;
  return lt_file_write_atomically (filename, (GBytes *[]) { header, data }, 2, error);
}

/* Loading ------------------------------------------------------------------ */

/* A header being read: the text, where the reader is, and what the file is
 * called in messages. */
typedef struct
{
  const char *text;
  gsize length;
  gsize at;
  const char *source;
} HeaderReader;

static void
skip_spaces (HeaderReader *reader)
{
  while (reader->at < reader->length
         && (reader->text[reader->at] == ' ' || reader->text[reader->at] == '\t'
             || reader->text[reader->at] == '\n' || reader->text[reader->at] == '\r'))
    reader->at++;
}

/* Whether the next character (after spaces) is @c, consumed if so. */
static gboolean
accept (HeaderReader *reader,
        char          c)
{
  skip_spaces (reader);
  if (reader->at < reader->length && reader->text[reader->at] == c)
    {
      reader->at++;
      return TRUE;
    }
  return FALSE;
}

/* Reads @c, or fails saying where it was expected (@where, marked with
 * N_()). */
static gboolean
expect (HeaderReader *reader,
        char          c,
        const char   *where,
        GError      **error)
{
  if (accept (reader, c))
    return TRUE;
  lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                     _("the header is not a dict NumPy writes: expected “%c” %s at byte %zu of "
                       "the header"),
                     c, _(where), reader->at);
  return FALSE;
}

/* A Python string literal in single or double quotes, without escapes
 * (NumPy's keys and descrs have none). */
static char *
read_string (HeaderReader *reader,
             GError      **error)
{
  char quote;
  gsize start;

  skip_spaces (reader);
  if (reader->at >= reader->length
      || (reader->text[reader->at] != '\'' && reader->text[reader->at] != '"'))
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                         _("the header is not a dict NumPy writes: expected a string at byte "
                           "%zu of the header"),
                         reader->at);
      return NULL;
    }
  quote = reader->text[reader->at++];
  start = reader->at;
  while (reader->at < reader->length && reader->text[reader->at] != quote)
    {
      if (reader->text[reader->at] == '\\' || reader->text[reader->at] == '\0')
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                             _("the header has a string with an escape or a NUL in it, which "
                               "NumPy never writes"));
          return NULL;
        }
      reader->at++;
    }
  if (reader->at >= reader->length)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                         _("the header ends inside a string"));
      return NULL;
    }
  reader->at++;
  return g_strndup (reader->text + start, reader->at - start - 1);
}

/* True or False. */
static gboolean
read_bool (HeaderReader *reader,
           gboolean     *value,
           GError      **error)
{
  skip_spaces (reader);
  if (reader->length - reader->at >= 4 && memcmp (reader->text + reader->at, "True", 4) == 0)
    {
      reader->at += 4;
      *value = TRUE;
      return TRUE;
    }
  if (reader->length - reader->at >= 5 && memcmp (reader->text + reader->at, "False", 5) == 0)
    {
      reader->at += 5;
      *value = FALSE;
      return TRUE;
    }
  lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                     _("'fortran_order' is neither True nor False"));
  return FALSE;
}

/* A tuple of sizes: (), (3,), (2, 3), with Python 2's "L" suffixes
 * allowed. */
static gboolean
read_shape (HeaderReader *reader,
            gint64       *shape,
            guint        *ndim,
            GError      **error)
{
  *ndim = 0;
  if (!expect (reader, '(', N_("to open 'shape'"), error))
    return FALSE;
  while (!accept (reader, ')'))
    {
      guint64 size = 0;
      gsize digits = 0;

      if (*ndim > 0 && !expect (reader, ',', N_("between sizes"), error))
        return FALSE;
      if (*ndim > 0 && accept (reader, ')'))
        break;
      skip_spaces (reader);
      while (reader->at < reader->length && g_ascii_isdigit (reader->text[reader->at]))
        {
          guint digit = (guint) (reader->text[reader->at] - '0');

          if (size > ((guint64) G_MAXINT64 - digit) / 10)
            {
              lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                                 _("size %u in 'shape' does not fit in 64 bits"), *ndim);
              return FALSE;
            }
          size = size * 10 + digit;
          reader->at++;
          digits++;
        }
      if (digits == 0)
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                             _("size %u in 'shape' is not a non-negative integer"), *ndim);
          return FALSE;
        }
      if (reader->at < reader->length && reader->text[reader->at] == 'L')
        reader->at++;
      if (*ndim == LT_MAX_DIMS)
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                             _("the array has more than the %d dims a tensor can have (NumPy "
                               "writes at most 32)"),
                             LT_MAX_DIMS);
          return FALSE;
        }
      shape[(*ndim)++] = (gint64) size;
    }
  return TRUE;
}

/* What the header says. */
typedef struct
{
  LtDType dtype;
  gboolean swapped;  /* the data is in the other byte order */
  gboolean fortran_order;
  guint ndim;
  gint64 shape[LT_MAX_DIMS];
} NpyHeader;

static gboolean
parse_descr (const char *descr,
             const char *source,
             NpyHeader  *header,
             GError    **error)
{
  const char *whole = descr;
  char order = descr[0];
  guint64 size = 0;
  char *end = NULL;

  if (order == '<' || order == '>' || order == '|' || order == '=')
    descr++;
  else
    order = '=';
  if (descr[0] != '\0' && g_ascii_isdigit (descr[1]))
    size = g_ascii_strtoull (descr + 1, &end, 10);
  for (guint i = 0; end != NULL && *end == '\0' && i < G_N_ELEMENTS (npy_types); i++)
    if (npy_types[i].kind == descr[0] && npy_types[i].size == size)
      {
        gboolean little = order == '<' || ((order == '|' || order == '=')
                                           && G_BYTE_ORDER == G_LITTLE_ENDIAN);

        header->dtype = npy_types[i].dtype;
        header->swapped = size > 1 && little != (G_BYTE_ORDER == G_LITTLE_ENDIAN);
        return TRUE;
      }
  if (descr[0] == 'O')
    g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                 _("%s: the array holds Python objects (pickled), which are not loaded"), source);
  else if (descr[0] == 'u')
    g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                 _("%s: unsigned integers of %" PRIu64 " bytes ('%s') have no libtensor "
                   "dtype; save the array as a signed type in NumPy first (astype('int64'))"),
                 source, size, whole);
  else
    g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                 _("%s: the dtype '%s' has no libtensor counterpart (bool, int8 to int64, uint8, "
                   "float16 to float64, complex64 and complex128 do)"), source, whole);
  return FALSE;
}

static gboolean
parse_header (HeaderReader *reader,
              NpyHeader    *header,
              GError      **error)
{
  gboolean seen[3] = { FALSE, FALSE, FALSE };
  static const char *const keys[3] = { "descr", "fortran_order", "shape" };

  if (!expect (reader, '{', N_("at the start"), error))
    return FALSE;
  while (!accept (reader, '}'))
    {
      g_autofree char *key = NULL;
      int which = -1;

      key = read_string (reader, error);
      if (key == NULL)
        return FALSE;
      for (int k = 0; k < 3; k++)
        if (strcmp (key, keys[k]) == 0)
          which = k;
      if (which < 0 || seen[which])
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                             which < 0 ? _("the header has a key “%s”, and NumPy's have only "
                                           "'descr', 'fortran_order' and 'shape'")
                                       : _("the header has the key “%s” twice"),
                             key);
          return FALSE;
        }
      seen[which] = TRUE;
      if (!expect (reader, ':', N_("after a key"), error))
        return FALSE;
      if (which == 0)
        {
          g_autofree char *descr = NULL;

          skip_spaces (reader);
          if (reader->at < reader->length && reader->text[reader->at] == '[')
            {
              g_set_error (error, LT_ERROR, LT_ERROR_DTYPE,
                           _("%s: the array has a structured dtype (fields), which tensors "
                             "cannot hold"), reader->source);
              return FALSE;
            }
          descr = read_string (reader, error);
          if (descr == NULL || !parse_descr (descr, reader->source, header, error))
            return FALSE;
        }
      else if ((which == 1 && !read_bool (reader, &header->fortran_order, error))
               || (which == 2 && !read_shape (reader, header->shape, &header->ndim, error)))
        return FALSE;
      if (!accept (reader, ','))
        {
          if (!expect (reader, '}', N_("after an entry"), error))
            return FALSE;
          break;
        }
    }
  for (int k = 0; k < 3; k++)
    if (!seen[k])
      {
        lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                           _("the header has no '%s'"), keys[k]);
        return FALSE;
      }
  skip_spaces (reader);
  if (reader->at != reader->length)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, reader->source,
                         _("the header goes on after its dict"));
      return FALSE;
    }
  return TRUE;
}

/* Where the file's bytes come from: memory, or an open file read with
 * pread(), straight into the tensor's memory. */
typedef struct
{
  const guint8 *memory;
  int fd;
  guint64 size;
  const char *name;
} NpySource;

/* Bytes @offset to @offset + @length of @source into @buffer; the caller
 * checked they lie within its size. */
static gboolean
read_exactly (const NpySource *source,
              guint64          offset,
              void            *buffer,
              gsize            length,
              GError         **error)
{
  guint8 *to = buffer;

  if (source->memory != NULL)
    {
      if (length > 0)
        memcpy (buffer, source->memory + offset, length);
      return TRUE;
    }
  while (length > 0)
    {
      gssize got = pread (source->fd, to, MIN (length, (gsize) G_MAXSSIZE), (off_t) offset);

      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        {
          int saved = errno;

          if (got == 0)
            lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source->name,
                               _("the file ended early, at byte %" PRIu64
                                 " (was it changed while being read?)"),
                               offset);
          else
            g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                         _("Could not read “%s”: %s"), source->name, g_strerror (saved));
          return FALSE;
        }
      to += got;
      offset += (guint64) got;
      length -= (gsize) got;
    }
  return TRUE;
}

/* The elements of @data in the other byte order, in place; complex
 * elements swap each part. */
static void
swap_in_place (guint8 *data,
               gsize   size,
               LtDType dtype)
{
  gsize part = lt_dtype_get_element_size (dtype) / (lt_dtype_is_complex (dtype) ? 2 : 1);

  for (gsize at = 0; at + part <= size; at += part)
    for (gsize b = 0; b < part / 2; b++)
      {
        guint8 kept = data[at + b];

        data[at + b] = data[at + part - 1 - b];
        data[at + part - 1 - b] = kept;
      }
}

/* NumPy writes headers of a few hundred bytes (version 2.0 exists for
 * headers over 64 KiB); anything near this is not NumPy's. */
#define NPY_MAX_HEADER_LENGTH (1 << 20)

static LtTensor *
load (const NpySource *source,
      GError         **error)
{
  guint8 prefix[NPY_MAGIC_LENGTH + 6];
  gsize header_start, header_length, element_size;
  g_autofree char *text = NULL;
  HeaderReader reader = { 0 };
  NpyHeader header = { 0 };
  gint64 numel;
  guint64 nbytes;
  g_autoptr (LtStorage) storage = NULL;
  g_autoptr (LtTensor) tensor = NULL;
  gint64 sizes[LT_MAX_DIMS], strides[LT_MAX_DIMS];
  guint8 *data;
  guint8 major;

  if (source->size < NPY_MAGIC_LENGTH + 2
      || !read_exactly (source, 0, prefix, NPY_MAGIC_LENGTH + 2, error)
      || memcmp (prefix, NPY_MAGIC, NPY_MAGIC_LENGTH) != 0)
    {
      if (error == NULL || *error == NULL)
        lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source->name,
                           _("not a .npy file: it does not start with \\x93NUMPY"));
      return NULL;
    }
  major = prefix[NPY_MAGIC_LENGTH];
  if (major < 1 || major > 3 || prefix[NPY_MAGIC_LENGTH + 1] != 0)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source->name,
                         _("the file is in .npy format version %u.%u, and only 1.0, 2.0 and 3.0 "
                           "are known"), major, prefix[NPY_MAGIC_LENGTH + 1]);
      return NULL;
    }
  header_start = NPY_MAGIC_LENGTH + 2 + (major == 1 ? 2 : 4);
  if (source->size < header_start)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source->name,
                         _("the file ends before its header's length"));
      return NULL;
    }
  if (!read_exactly (source, NPY_MAGIC_LENGTH + 2, prefix + NPY_MAGIC_LENGTH + 2,
                     header_start - NPY_MAGIC_LENGTH - 2, error))
    return NULL;
  header_length = prefix[NPY_MAGIC_LENGTH + 2] | (gsize) prefix[NPY_MAGIC_LENGTH + 3] << 8;
  if (major > 1)
    header_length |= (gsize) prefix[NPY_MAGIC_LENGTH + 4] << 16
                     | (gsize) prefix[NPY_MAGIC_LENGTH + 5] << 24;
  if (header_length > source->size - header_start)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source->name,
                         _("the header is said to be %zu bytes long, but only %"
                           PRIu64 " bytes follow"), header_length,
                         source->size - header_start);
      return NULL;
    }
  if (header_length > NPY_MAX_HEADER_LENGTH)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source->name,
                         _("the header is said to be %zu bytes long; NumPy's "
                           "are a few hundred"), header_length);
      return NULL;
    }

  text = g_malloc (header_length + 1);
  if (!read_exactly (source, header_start, text, header_length, error))
    return NULL;
  reader.text = text;
  reader.length = header_length;
  reader.source = source->name;
  if (!parse_header (&reader, &header, error))
    return NULL;

  /* Column-major data is the row-major data of the reversed shape, read
   * through reversed dims. */
  for (guint d = 0; d < header.ndim; d++)
    sizes[d] = header.shape[header.fortran_order ? header.ndim - 1 - d : d];
  element_size = lt_dtype_get_element_size (header.dtype);
  if (!lt_layout_numel (header.ndim, sizes, &numel)
      || !lt_layout_contiguous_strides (header.ndim, sizes, strides)
      || !g_uint64_checked_mul (&nbytes, (guint64) numel, element_size) || nbytes > G_MAXINT64)
    {
      g_autofree char *shape = lt_layout_shape_to_string (header.ndim, header.shape);

      g_set_error (error, LT_ERROR, LT_ERROR_OVERFLOW,
                   _("%s: the shape %s has more elements than 64 bits can count"), source->name,
                   shape);
      return NULL;
    }
  if (nbytes != source->size - header_start - header_length)
    {
      g_autofree char *shape = lt_layout_shape_to_string (header.ndim, header.shape);

      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source->name,
                         _("the header's shape %s of %s needs %" PRIu64 " bytes of data, "
                           "but the file has %" PRIu64),
                         shape, lt_dtype_get_name (header.dtype), nbytes,
                         source->size - header_start - header_length);
      return NULL;
    }

  /* Read straight into the tensor's own memory (huge pages for large
   * blocks): nothing of the file or of the caller's bytes is kept. */
  storage = lt_storage_new_uninitialized (header.dtype, numel, error);
  if (storage == NULL)
    return NULL;
  data = lt_storage_get_data (storage);
  if (!read_exactly (source, header_start + header_length, data, (gsize) nbytes, error))
    return NULL;
  if (header.dtype == LT_DTYPE_BOOL)
    for (gsize i = 0; i < nbytes; i++)
      if (data[i] > 1)
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source->name,
                             _("bool element %zu is %u, not 0 or 1"), i, data[i]);
          return NULL;
        }
  if (header.swapped)
    swap_in_place (data, (gsize) nbytes, header.dtype);

  tensor = lt_tensor_new_view (storage, header.ndim, sizes, strides, 0);
  if (header.fortran_order && header.ndim > 1)
    return reversed_dims (tensor);
  return g_steal_pointer (&tensor);
}

/**
 * lt_tensor_new_from_npy_bytes:
 * @bytes: the contents of a .npy file
 * @error: return location for a #GError
 *
 * The array of a .npy file held in memory, as lt_tensor_new_from_npy()
 * reads it, in memory of its own: writes to the tensor never reach
 * @bytes.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set as for
 *   lt_tensor_new_from_npy()
 */
LtTensor *
lt_tensor_new_from_npy_bytes (GBytes  *bytes,
                              GError **error)
{
  NpySource source = { .fd = -1, .name = _("npy data") };
  gsize size;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  source.memory = g_bytes_get_data (bytes, &size);
  source.size = size;
  if (source.memory == NULL)
    source.memory = (const guint8 *) "";
  return load (&source, error);
}

/**
 * lt_tensor_new_from_npy:
 * @filename: (type filename): a .npy file
 * @error: return location for a #GError
 *
 * The array of a .npy file, as `numpy.save()` writes it: any format version
 * (1.0, 2.0, 3.0), either byte order, row-major or Fortran order (which
 * gives a tensor with column-major strides, as NumPy does), for the dtypes
 * both have: bool, uint8, int8 to int64, float16 to float64, complex64 and
 * complex128.
 *
 * The file is read into memory once, as `numpy.load()` reads it, and the
 * tensor holds that memory: later changes to the file do not reach it.
 *
 * Nothing in the file is trusted: a wrong magic number, a malformed
 * header, unknown keys, a shape whose byte count overflows or disagrees
 * with the data that follows, and bool bytes other than 0 and 1 are all
 * refused, with a message naming the file.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set:
 *   %LT_ERROR_FILE_FORMAT for a malformed file, %LT_ERROR_DTYPE for a dtype
 *   libtensor lacks, %LT_ERROR_OVERFLOW for sizes beyond 64 bits, a
 *   #GFileError when the file cannot be read
 */
LtTensor *
lt_tensor_new_from_npy (const char *filename,
                        GError    **error)
{
  g_autofree char *name = NULL;
  NpySource source = { 0 };
  GStatBuf buf;
  LtTensor *tensor;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  name = g_filename_display_name (filename);
  source.fd = g_open (filename, O_RDONLY | O_CLOEXEC, 0);
  if (source.fd < 0 || fstat (source.fd, &buf) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not open “%s”: %s"), name, g_strerror (saved));
      if (source.fd >= 0)
        g_close (source.fd, NULL);
      return NULL;
    }
  if (!S_ISREG (buf.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("“%s” is not a regular file"),
                   name);
      g_close (source.fd, NULL);
      return NULL;
    }
  source.size = (guint64) buf.st_size;
  source.name = name;
  tensor = load (&source, error);
  g_close (source.fd, NULL);
  return tensor;
}
