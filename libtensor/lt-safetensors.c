/* lt-safetensors.c: tables of tensors in safetensors files
 *
 * The format (https://github.com/huggingface/safetensors): a little-endian
 * u64 N, then N bytes of a JSON object that names each tensor's dtype,
 * shape and byte range, then the tensors' bytes, row-major and
 * little-endian, one after another. Files are written as the Rust crate
 * writes them, byte for byte; files read are trusted in nothing: every
 * count, size and offset is checked before any memory is touched, and the
 * byte ranges must cover the data exactly, as the crate requires.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <string.h>

#include "lt-error.h"
#include "lt-file-private.h"
#include "lt-i18n-private.h"
#include "lt-io.h"
#include "lt-memory-private.h"

#define LENGTH_SIZE 8
/* The crate refuses longer headers; so does this reader, and this writer
 * does not write them. */
#define MAX_HEADER_SIZE 100000000
#define METADATA_KEY "__metadata__"
#define BYTES_SOURCE _("safetensors data")
#define NO_DTYPE (-1)

/* The format's dtypes in the order of the crate's Dtype enum: its writer
 * sorts tensors by this order, descending, then by name. */
static const struct
{
  const char *name;
  int dtype;
} format_dtypes[] = {
  { "BOOL", LT_DTYPE_BOOL },
  { "F4", NO_DTYPE },
  { "F6_E2M3", NO_DTYPE },
  { "F6_E3M2", NO_DTYPE },
  { "U8", LT_DTYPE_UINT8 },
  { "I8", LT_DTYPE_INT8 },
  { "F8_E5M2", NO_DTYPE },
  { "F8_E4M3", NO_DTYPE },
  { "F8_E8M0", NO_DTYPE },
  { "I16", LT_DTYPE_INT16 },
  { "U16", NO_DTYPE },
  { "F16", LT_DTYPE_FLOAT16 },
  { "BF16", LT_DTYPE_BFLOAT16 },
  { "I32", LT_DTYPE_INT32 },
  { "U32", NO_DTYPE },
  { "F32", LT_DTYPE_FLOAT32 },
  { "C64", LT_DTYPE_COMPLEX64 },
  { "F64", LT_DTYPE_FLOAT64 },
  { "I64", LT_DTYPE_INT64 },
  { "U64", NO_DTYPE },
};

/* Where a format dtype stands in format_dtypes, or -1. */
static int
format_dtype_index_of_name (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (format_dtypes); i++)
    if (strcmp (format_dtypes[i].name, name) == 0)
      return (int) i;
  return -1;
}

static int
format_dtype_index_of_dtype (LtDType dtype)
{
  for (guint i = 0; i < G_N_ELEMENTS (format_dtypes); i++)
    if (format_dtypes[i].dtype == (int) dtype)
      return (int) i;
  return -1;
}

/* The file is little-endian: converting to it and from it are the same
 * swap, on big-endian hosts only. */
static GBytes *
little_endian_bytes (GBytes  *bytes,
                     LtDType  dtype)
{
  if (G_BYTE_ORDER == G_LITTLE_ENDIAN)
    return g_bytes_ref (bytes);
  return lt_file_swap_bytes (bytes, dtype);
}

static char *
shape_to_string (guint         n_dims,
                 const gint64 *sizes)
{
  GString *text = g_string_new ("[");

  for (guint d = 0; d < n_dims; d++)
    g_string_append_printf (text, "%s%" G_GINT64_FORMAT, d ? ", " : "", sizes[d]);
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

/* Writing */

typedef struct
{
  const char *name;
  LtTensor *tensor;
  guint format_index;
  GBytes *bytes;
} SaveEntry;

static void
save_entry_clear (gpointer data)
{
  SaveEntry *entry = data;

  g_clear_pointer (&entry->bytes, g_bytes_unref);
}

static int
compare_save_entries (gconstpointer a,
                      gconstpointer b)
{
  const SaveEntry *left = a;
  const SaveEntry *right = b;

  if (left->format_index != right->format_index)
    return left->format_index > right->format_index ? -1 : 1;
  return strcmp (left->name, right->name);
}

static gboolean
check_save_entry (const char  *name,
                  LtTensor    *tensor,
                  const char  *source,
                  SaveEntry   *entry,
                  GError     **error)
{
  LtDType dtype = lt_tensor_get_dtype (tensor);
  int format_index = format_dtype_index_of_dtype (dtype);

  if (!g_utf8_validate (name, -1, NULL))
    {
      lt_file_set_error (error, LT_ERROR_INVALID_ARGUMENT, source,
                         _("a tensor name is not valid UTF-8; safetensors names are JSON strings"));
      return FALSE;
    }
  if (strcmp (name, METADATA_KEY) == 0)
    {
      lt_file_set_error (error, LT_ERROR_INVALID_ARGUMENT, source,
                         _("a tensor cannot be named “%s”: the header keeps that key for the "
                           "metadata; rename the tensor"),
                         METADATA_KEY);
      return FALSE;
    }
  if (format_index < 0)
    {
      lt_file_set_error (error, LT_ERROR_DTYPE, source,
                         _("tensor “%s” is %s, which safetensors cannot store (its only "
                           "complex dtype is C64); convert it to complex64 first"),
                         name, lt_dtype_get_name (dtype));
      return FALSE;
    }

  *entry = (SaveEntry) { .name = name, .tensor = tensor, .format_index = (guint) format_index };
  return TRUE;
}

/* The tensors of @tensors in the order the crate writes them, each checked
 * before any is copied, then with its bytes as the file holds them. */
static GArray *
collect_save_entries (GHashTable  *tensors,
                      const char  *source,
                      GError     **error)
{
  g_autoptr (GArray) entries = g_array_sized_new (FALSE, FALSE, sizeof (SaveEntry),
                                                  g_hash_table_size (tensors));
  GHashTableIter iter;
  gpointer key, value;

  g_array_set_clear_func (entries, save_entry_clear);
  g_hash_table_iter_init (&iter, tensors);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      SaveEntry entry;

      if (key == NULL || value == NULL)
        {
          lt_file_set_error (error, LT_ERROR_INVALID_ARGUMENT, source,
                             key == NULL ? _("a tensor has no name")
                                         : _("“%s” names no tensor (NULL, or None in Python)"),
                             (const char *) key);
          return NULL;
        }
      g_return_val_if_fail (LT_IS_TENSOR (value), NULL);

      if (!check_save_entry (key, value, source, &entry, error))
        return NULL;
      g_array_append_val (entries, entry);
    }
  g_array_sort (entries, compare_save_entries);

  for (guint i = 0; i < entries->len; i++)
    {
      SaveEntry *entry = &g_array_index (entries, SaveEntry, i);
      g_autoptr (GBytes) host_bytes = lt_tensor_to_bytes (entry->tensor, error);

      if (host_bytes == NULL)
        {
          g_prefix_error (error, _("%s: tensor “%s”: "), source, entry->name);
          return NULL;
        }
      entry->bytes = little_endian_bytes (host_bytes, lt_tensor_get_dtype (entry->tensor));
    }
  return g_steal_pointer (&entries);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The metadata, keys sorted so that a table gives the same file every time. */
static gboolean
add_metadata (JsonBuilder *builder,
              GHashTable  *metadata,
              const char  *source,
              GError     **error)
{
  guint n_keys;
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (metadata, &n_keys);

  qsort (keys, n_keys, sizeof (gpointer), compare_strings);

  json_builder_set_member_name (builder, METADATA_KEY);
  json_builder_begin_object (builder);
  for (guint i = 0; i < n_keys; i++)
    {
      const char *value = g_hash_table_lookup (metadata, keys[i]);

      if (value == NULL)
        {
          lt_file_set_error (error, LT_ERROR_INVALID_ARGUMENT, source,
                             _("metadata key “%s” has no value (NULL, or None in Python)"),
                             (const char *) keys[i]);
          return FALSE;
        }

      if (!g_utf8_validate (keys[i], -1, NULL) || !g_utf8_validate (value, -1, NULL))
        {
          lt_file_set_error (error, LT_ERROR_INVALID_ARGUMENT, source,
                             _("a metadata key or value is not valid UTF-8; safetensors "
                               "metadata are JSON strings"));
          return FALSE;
        }
      json_builder_set_member_name (builder, keys[i]);
      json_builder_add_string_value (builder, value);
    }
  json_builder_end_object (builder);
  return TRUE;
}

static gboolean
add_tensor_entries (JsonBuilder *builder,
                    GArray      *entries,
                    const char  *source,
                    GError     **error)
{
  guint64 offset = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      const SaveEntry *entry = &g_array_index (entries, SaveEntry, i);
      gsize size = g_bytes_get_size (entry->bytes);
      guint n_dims;
      const gint64 *sizes = lt_tensor_get_sizes (entry->tensor, &n_dims);
      guint64 end;

      if (!g_uint64_checked_add (&end, offset, size) || end > G_MAXINT64)
        {
          lt_file_set_error (error, LT_ERROR_OVERFLOW, source,
                             _("the tensors up to “%s” take more than 2^63 bytes"),
                             entry->name);
          return FALSE;
        }

      json_builder_set_member_name (builder, entry->name);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "dtype");
      json_builder_add_string_value (builder, format_dtypes[entry->format_index].name);
      json_builder_set_member_name (builder, "shape");
      json_builder_begin_array (builder);
      for (guint d = 0; d < n_dims; d++)
        json_builder_add_int_value (builder, sizes[d]);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "data_offsets");
      json_builder_begin_array (builder);
      json_builder_add_int_value (builder, (gint64) offset);
      json_builder_add_int_value (builder, (gint64) end);
      json_builder_end_array (builder);
      json_builder_end_object (builder);

      offset = end;
    }
  return TRUE;
}

/* The length and the header: compact JSON, metadata first, padded with
 * spaces to a multiple of 8 bytes so that the data starts aligned. */
static GBytes *
build_header (GArray      *entries,
              GHashTable  *metadata,
              const char  *source,
              GError     **error)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *json = NULL;
  gsize json_length, header_size;
  guint64 length_le;
  guint8 *buffer;

  json_builder_begin_object (builder);
  if (metadata != NULL && g_hash_table_size (metadata) > 0
      && !add_metadata (builder, metadata, source, error))
    return NULL;
  if (!add_tensor_entries (builder, entries, source, error))
    return NULL;
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json = json_generator_to_data (generator, &json_length);

  header_size = (json_length + 7) / 8 * 8;
  if (header_size > MAX_HEADER_SIZE)
    {
      lt_file_set_error (error, LT_ERROR_INVALID_ARGUMENT, source,
                         _("the header would take %zu bytes, more than the %d that "
                           "safetensors readers accept; use fewer tensors or less metadata"),
                         header_size, MAX_HEADER_SIZE);
      return NULL;
    }

  buffer = g_malloc (LENGTH_SIZE + header_size);
  length_le = GUINT64_TO_LE ((guint64) header_size);
  memcpy (buffer, &length_le, LENGTH_SIZE);
  memcpy (buffer + LENGTH_SIZE, json, json_length);
  memset (buffer + LENGTH_SIZE + json_length, ' ', header_size - json_length);
  return g_bytes_new_take (buffer, LENGTH_SIZE + header_size);
}

/* The file as parts: the header, then each tensor's bytes. */
static GPtrArray *
serialize (GHashTable  *tensors,
           GHashTable  *metadata,
           const char  *source,
           GError     **error)
{
  g_autoptr (GArray) entries = collect_save_entries (tensors, source, error);
  g_autoptr (GPtrArray) parts = NULL;
  GBytes *header;

  if (entries == NULL)
    return NULL;
  header = build_header (entries, metadata, source, error);
  if (header == NULL)
    return NULL;

  parts = g_ptr_array_new_full (entries->len + 1, (GDestroyNotify) g_bytes_unref);
  g_ptr_array_add (parts, header);
  for (guint i = 0; i < entries->len; i++)
    g_ptr_array_add (parts, g_bytes_ref (g_array_index (entries, SaveEntry, i).bytes));
  return g_steal_pointer (&parts);
}

/**
 * lt_safetensors_to_bytes:
 * @tensors: (element-type utf8 LtTensor): the tensors, by name
 * @metadata: (nullable) (element-type utf8 utf8): text to store beside
 *   them, under the header's `__metadata__` key
 * @error: return location for a #GError
 *
 * The contents of a safetensors file holding @tensors: every tensor's
 * elements in row-major order, whatever its strides and device, and
 * @metadata when it is not empty. The bytes are those the Rust safetensors
 * crate writes: tensors sorted by dtype (widest first) then by name,
 * metadata keys sorted.
 *
 * Returns: (transfer full): the bytes, or %NULL with @error set when a
 *   tensor is complex128 (safetensors has no such dtype), a name is
 *   `__metadata__` or not UTF-8, or a tensor cannot be read
 */
GBytes *
lt_safetensors_to_bytes (GHashTable  *tensors,
                         GHashTable  *metadata,
                         GError     **error)
{
  g_autoptr (GPtrArray) parts = NULL;
  gsize total = 0;
  guint8 *buffer;
  gsize position = 0;

  g_return_val_if_fail (tensors != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  parts = serialize (tensors, metadata, BYTES_SOURCE, error);
  if (parts == NULL)
    return NULL;

  for (guint i = 0; i < parts->len; i++)
    total += g_bytes_get_size (parts->pdata[i]);
  buffer = lt_memory_try_alloc (total, FALSE);
  if (buffer == NULL)
    {
      lt_file_set_error (error, LT_ERROR_OUT_OF_MEMORY, BYTES_SOURCE,
                         _("cannot allocate "
                           "%zu bytes for the file's contents"), total);
      return NULL;
    }
  for (guint i = 0; i < parts->len; i++)
    {
      gsize size;
      gconstpointer data = g_bytes_get_data (parts->pdata[i], &size);

      if (size > 0)
        memcpy (buffer + position, data, size);
      position += size;
    }
  return g_bytes_new_take (buffer, total);
}

/**
 * lt_safetensors_save:
 * @filename: (type filename): the file to write
 * @tensors: (element-type utf8 LtTensor): the tensors, by name
 * @metadata: (nullable) (element-type utf8 utf8): text to store beside
 *   them, under the header's `__metadata__` key
 * @error: return location for a #GError
 *
 * Writes @tensors to a safetensors file, as lt_safetensors_to_bytes() lays
 * them out. The file is replaced only once everything is written: on any
 * error, a file that was there is left as it was.
 *
 * Returns: %TRUE on success, %FALSE with @error set as for
 *   lt_safetensors_to_bytes(), or in %G_FILE_ERROR when the file cannot be
 *   written
 */
gboolean
lt_safetensors_save (const char  *filename,
                     GHashTable  *tensors,
                     GHashTable  *metadata,
                     GError     **error)
{
  g_autofree char *source = NULL;
  g_autoptr (GPtrArray) parts = NULL;

  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (tensors != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  source = g_filename_display_name (filename);
  parts = serialize (tensors, metadata, source, error);
  if (parts == NULL)
    return FALSE;
  return lt_file_write_atomically (filename, (GBytes *const *) parts->pdata, parts->len, error);
}

/* Reading */

typedef struct
{
  const char *name;
  LtDType dtype;
  guint n_dims;
  gint64 sizes[LT_MAX_DIMS];
  guint64 begin;
  guint64 end;
} LoadEntry;

static gboolean
read_header_size (const guint8  *data,
                  gsize          size,
                  const char    *source,
                  guint64       *out_header_size,
                  GError       **error)
{
  guint64 header_size;

  if (size < LENGTH_SIZE)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("%zu bytes are too few for safetensors, which start "
                           "with an 8-byte header length"),
                         size);
      return FALSE;
    }

  memcpy (&header_size, data, LENGTH_SIZE);
  header_size = GUINT64_FROM_LE (header_size);
  if (header_size > MAX_HEADER_SIZE)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the header length is %" PRIu64 " bytes, more than the %d "
                           "safetensors allows"),
                         header_size, MAX_HEADER_SIZE);
      return FALSE;
    }
  if (header_size > size - LENGTH_SIZE)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the header length is %" PRIu64 " bytes, but only %zu bytes follow "
                           "it; the data is truncated"),
                         header_size, size - LENGTH_SIZE);
      return FALSE;
    }

  *out_header_size = header_size;
  return TRUE;
}

/* JSON-GLib wraps integers beyond 64 bits around (2^64 + 5 reads as 5), so
 * they are looked for in the text: the first, or NULL when none. */
static char *
find_integer_beyond_int64 (const char *text,
                           gsize       length)
{
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      gsize start = i;
      g_autofree char *token = NULL;
      g_autoptr (GError) error = NULL;

      if (in_string)
        {
          if (text[i] == '\\')
            i++;
          else if (text[i] == '"')
            in_string = FALSE;
          continue;
        }
      if (text[i] == '"')
        {
          in_string = TRUE;
          continue;
        }
      if (text[i] != '-' && !g_ascii_isdigit (text[i]))
        continue;

      i++;
      while (i < length && (g_ascii_isdigit (text[i]) || text[i] == '.' || text[i] == 'e'
                            || text[i] == 'E' || text[i] == '+' || text[i] == '-'))
        i++;
      token = g_strndup (text + start, i - start);
      i--;
      if (!g_ascii_string_to_signed (token, 10, G_MININT64, G_MAXINT64, NULL, &error)
          && g_error_matches (error, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
        return g_steal_pointer (&token);
    }
  return NULL;
}

/* Safetensors headers nest three deep (the header, an entry, its shape);
 * JSON-GLib parses by recursion without a limit, so that a header of a
 * hundred thousand brackets would overflow the stack. */
#define MAX_NESTING 32

/* Where the top-level object of @text ends (just after its "}"), or 0
 * when it does not close; and whether it nests arrays and objects deeper
 * than MAX_NESTING. */
static gsize
scan_header (const char *text,
             gsize       length,
             gboolean   *too_deep)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  *too_deep = FALSE;
  for (gsize i = 0; i < length; i++)
    {
      if (in_string)
        {
          if (text[i] == '\\')
            i++;
          else if (text[i] == '"')
            in_string = FALSE;
        }
      else if (text[i] == '"')
        in_string = TRUE;
      else if (text[i] == '{' || text[i] == '[')
        {
          if (++depth > MAX_NESTING)
            {
              *too_deep = TRUE;
              return 0;
            }
        }
      else if ((text[i] == '}' || text[i] == ']') && depth > 0 && --depth == 0)
        return i + 1;
    }
  return 0;
}

static JsonParser *
parse_header (const char  *text,
              gsize        length,
              const char  *source,
              GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) json_error = NULL;
  g_autofree char *huge = NULL;
  gboolean too_deep;
  gsize object_end;
  JsonNode *root;

  if (!g_utf8_validate_len (text, length, NULL))
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the header is not valid UTF-8 (or holds a NUL)"));
      return NULL;
    }
  /* The header is an object; and JSON-GLib 1.6 leaks the value it read
   * when text follows a top-level number ("5{}"), so nothing else is
   * handed to it. */
  for (gsize i = 0; i < length && text[i] != '{'; i++)
    if (!g_ascii_isspace (text[i]))
      {
        lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                           _("the header is not a JSON object: it does not start with “{”"));
        return NULL;
      }
  object_end = scan_header (text, length, &too_deep);
  if (too_deep)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the header nests arrays or objects more than %d deep; safetensors "
                           "headers nest 3 deep"),
                         MAX_NESTING);
      return NULL;
    }
  /* JSON-GLib 1.6 also leaks what it read when a value follows the object
   * ("{} []"): it gets the object alone, and only spaces may follow. */
  for (gsize i = object_end; object_end > 0 && i < length; i++)
    if (!g_ascii_isspace (text[i]))
      {
        lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                           _("the header is not valid JSON: “%c” after its object"), text[i]);
        return NULL;
      }
  if (!json_parser_load_from_data (parser, text, (gssize) (object_end > 0 ? object_end : length),
                                   &json_error))
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source, _("the header is not valid JSON: %s"),
                         json_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source, _("the header is not a JSON object"));
      return NULL;
    }
  huge = find_integer_beyond_int64 (text, length);
  if (huge != NULL)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the header has the integer %s, which does not fit in 64 bits"), huge);
      return NULL;
    }
  return g_steal_pointer (&parser);
}

/* @node as a count or an offset: a JSON integer, not negative. */
static gboolean
read_natural (JsonNode *node,
              gint64   *out_value)
{
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64
      || json_node_get_int (node) < 0)
    return FALSE;
  *out_value = json_node_get_int (node);
  return TRUE;
}

static GHashTable *
read_metadata (JsonNode    *node,
               const char  *source,
               GError     **error)
{
  g_autoptr (GHashTable) metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                           g_free);
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  /* The crate reads a null as no metadata. */
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return g_steal_pointer (&metadata);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the header's “%s” is not an object of strings"), METADATA_KEY);
      return NULL;
    }

  json_object_iter_init (&iter, json_node_get_object (node));
  while (json_object_iter_next (&iter, &key, &value))
    {
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                             _("the metadata value of “%s” is not a string"), key);
          return NULL;
        }
      g_hash_table_insert (metadata, g_strdup (key), g_strdup (json_node_get_string (value)));
    }
  return g_steal_pointer (&metadata);
}

static gboolean
read_entry_dtype (JsonNode    *node,
                  const char  *name,
                  const char  *source,
                  LtDType     *out_dtype,
                  GError     **error)
{
  const char *text;
  int index;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the dtype of tensor “%s” is not a string"), name);
      return FALSE;
    }
  text = json_node_get_string (node);
  index = format_dtype_index_of_name (text);
  if (index < 0)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("tensor “%s” has dtype “%s”, which is not a safetensors "
                           "dtype"), name, text);
      return FALSE;
    }
  if (format_dtypes[index].dtype == NO_DTYPE)
    {
      lt_file_set_error (error, LT_ERROR_DTYPE, source,
                         _("tensor “%s” has dtype %s, which libtensor does not have"), name,
                         text);
      return FALSE;
    }
  *out_dtype = format_dtypes[index].dtype;
  return TRUE;
}

static gboolean
read_entry_shape (JsonNode    *node,
                  LoadEntry   *entry,
                  const char  *source,
                  GError     **error)
{
  JsonArray *array;
  guint n_dims;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the shape of tensor “%s” is not an array of sizes"), entry->name);
      return FALSE;
    }
  array = json_node_get_array (node);
  n_dims = json_array_get_length (array);
  if (n_dims > LT_MAX_DIMS)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("tensor “%s” has %u dims, more than the %d a libtensor tensor can "
                           "have"),
                         entry->name, n_dims, LT_MAX_DIMS);
      return FALSE;
    }
  for (guint d = 0; d < n_dims; d++)
    if (!read_natural (json_array_get_element (array, d), &entry->sizes[d]))
      {
        lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                           _("size %u in the shape of tensor “%s” is not an integer >= "
                             "0"), d, entry->name);
        return FALSE;
      }
  entry->n_dims = n_dims;
  return TRUE;
}

static gboolean
read_entry_offsets (JsonNode    *node,
                    LoadEntry   *entry,
                    const char  *source,
                    GError     **error)
{
  JsonArray *array = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  gint64 begin, end;

  if (array == NULL || json_array_get_length (array) != 2
      || !read_natural (json_array_get_element (array, 0), &begin)
      || !read_natural (json_array_get_element (array, 1), &end))
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the data_offsets of tensor “%s” are not two integers >= 0"),
                         entry->name);
      return FALSE;
    }
  if (end < begin)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the data_offsets of tensor “%s” end at byte %" PRId64
                           ", before they begin at byte %" PRId64),
                         entry->name, end, begin);
      return FALSE;
    }
  entry->begin = (guint64) begin;
  entry->end = (guint64) end;
  return TRUE;
}

/* The bytes @entry's shape and dtype take, also checking that its strides
 * fit in 64 bits (a size-0 dim counts as 1 there). */
static gboolean
entry_byte_size (const LoadEntry  *entry,
                 const char       *source,
                 guint64          *out_nbytes,
                 GError          **error)
{
  guint64 extent = 1;
  gboolean empty = FALSE;
  guint64 nbytes;

  for (guint d = 0; d < entry->n_dims; d++)
    {
      empty = empty || entry->sizes[d] == 0;
      if (!g_uint64_checked_mul (&extent, extent, (guint64) MAX (entry->sizes[d], 1))
          || extent > G_MAXINT64)
        {
          g_autofree char *shape = shape_to_string (entry->n_dims, entry->sizes);

          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                             _("the shape %s of tensor “%s” has more elements than fit in 64 "
                               "bits"), shape,
                             entry->name);
          return FALSE;
        }
    }

  if (!g_uint64_checked_mul (&nbytes, empty ? 0 : extent,
                             lt_dtype_get_element_size (entry->dtype)))
    {
      g_autofree char *shape = shape_to_string (entry->n_dims, entry->sizes);

      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("tensor “%s” of shape %s takes more bytes than fit in 64 "
                           "bits"), entry->name,
                         shape);
      return FALSE;
    }
  *out_nbytes = nbytes;
  return TRUE;
}

static gboolean
check_entry_extent (const LoadEntry  *entry,
                    guint64           data_size,
                    const char       *source,
                    GError          **error)
{
  guint64 nbytes;

  if (!entry_byte_size (entry, source, &nbytes, error))
    return FALSE;
  if (entry->end - entry->begin != nbytes)
    {
      g_autofree char *shape = shape_to_string (entry->n_dims, entry->sizes);

      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("tensor “%s” is %s of shape %s, which takes "
                           "%" PRIu64 " bytes, but "
                           "its data_offsets [%" PRIu64 ", %" PRIu64 "] span %"
                           PRIu64),
                         entry->name, lt_dtype_get_name (entry->dtype), shape, nbytes, entry->begin,
                         entry->end, entry->end - entry->begin);
      return FALSE;
    }
  if (entry->end > data_size)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the header says tensor “%s” ends at byte %" PRIu64 ", past the "
                           "data's %" PRIu64 " bytes"),
                         entry->name, entry->end, data_size);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_entry (const char  *name,
            JsonNode    *node,
            guint64      data_size,
            const char  *source,
            LoadEntry   *entry,
            GError     **error)
{
  static const char *const keys[] = { "dtype", "shape", "data_offsets", NULL };
  JsonObject *object;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the header's entry for tensor “%s” is not an object"), name);
      return FALSE;
    }
  object = json_node_get_object (node);

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &key, &value))
    if (!g_strv_contains (keys, key))
      {
        lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                           _("tensor “%s” has the key “%s”; the keys are dtype, shape and "
                             "data_offsets"),
                           name, key);
        return FALSE;
      }
  for (guint i = 0; keys[i] != NULL; i++)
    if (!json_object_has_member (object, keys[i]))
      {
        lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                           _("tensor “%s” has no %s"), name, keys[i]);
        return FALSE;
      }

  entry->name = name;
  return read_entry_dtype (json_object_get_member (object, "dtype"), name, source,
                           &entry->dtype, error)
         && read_entry_shape (json_object_get_member (object, "shape"), entry, source, error)
         && read_entry_offsets (json_object_get_member (object, "data_offsets"), entry, source,
                                error)
         && check_entry_extent (entry, data_size, source, error);
}

static GArray *
read_entries (JsonObject  *header,
              guint64      data_size,
              const char  *source,
              GError     **error)
{
  g_autoptr (GArray) entries = g_array_sized_new (FALSE, FALSE, sizeof (LoadEntry),
                                                  json_object_get_size (header));
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  json_object_iter_init (&iter, header);
  while (json_object_iter_next (&iter, &name, &node))
    {
      LoadEntry entry;

      if (strcmp (name, METADATA_KEY) == 0)
        continue;
      if (!read_entry (name, node, data_size, source, &entry, error))
        return NULL;
      g_array_append_val (entries, entry);
    }
  return g_steal_pointer (&entries);
}

static int
compare_load_entries (gconstpointer a,
                      gconstpointer b)
{
  const LoadEntry *left = a;
  const LoadEntry *right = b;

  if (left->begin != right->begin)
    return left->begin < right->begin ? -1 : 1;
  if (left->end != right->end)
    return left->end < right->end ? -1 : 1;
  return 0;
}

/* Sorts @entries by offset and checks that they cover the data exactly:
 * no byte in two tensors, none in no tensor. */
static gboolean
check_tiling (GArray      *entries,
              guint64      data_size,
              const char  *source,
              GError     **error)
{
  guint64 position = 0;
  const char *previous = NULL;

  g_array_sort (entries, compare_load_entries);
  for (guint i = 0; i < entries->len; i++)
    {
      const LoadEntry *entry = &g_array_index (entries, LoadEntry, i);

      if (entry->begin < position)
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                             _("tensors “%s” and “%s” overlap: “%s” begins at byte %" PRIu64 ", "
                               "before “%s” ends at byte %" PRIu64),
                             previous, entry->name, entry->name, entry->begin, previous, position);
          return FALSE;
        }
      if (entry->begin > position && previous == NULL)
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                             _("bytes 0 to %" PRIu64 " of the data belong to no tensor; the "
                               "first, “%s”, begins at byte %" PRIu64),
                             entry->begin, entry->name, entry->begin);
          return FALSE;
        }
      if (entry->begin > position)
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                             _("bytes %" PRIu64 " to %" PRIu64 " of the data belong to no "
                               "tensor: a hole between “%s” and “%s”"),
                             position, entry->begin, previous, entry->name);
          return FALSE;
        }
      position = entry->end;
      previous = entry->name;
    }

  if (previous == NULL && data_size > 0)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the data has %" PRIu64 " bytes, but the header describes no "
                           "tensor"),
                         data_size);
      return FALSE;
    }
  if (position != data_size)
    {
      lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                         _("the data has "
                           "%" PRIu64 " bytes after the last tensor ends at byte %"
                           PRIu64 "; they belong to no tensor"),
                         data_size - position, position);
      return FALSE;
    }
  return TRUE;
}

/* Bool elements are bytes 0 and 1; anything else would be a bool no
 * operation expects. */
static gboolean
check_bools (GBytes     *bytes,
             const char *name,
             const char *source,
             GError    **error)
{
  gsize size;
  const guint8 *values = g_bytes_get_data (bytes, &size);

  for (gsize i = 0; i < size; i++)
    if (values[i] > 1)
      {
        lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                           _("bool element %zu of tensor “%s” is %u, not 0 or 1"),
                           i, name, values[i]);
        return FALSE;
      }
  return TRUE;
}

/* Tensors over @bytes' memory, without copying where it is aligned (and
 * the file little-endian like the host). */
static GHashTable *
make_tensors (GBytes      *bytes,
              gsize        data_start,
              GArray      *entries,
              const char  *source,
              GError     **error)
{
  g_autoptr (GHashTable) tensors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                          g_object_unref);

  for (guint i = 0; i < entries->len; i++)
    {
      const LoadEntry *entry = &g_array_index (entries, LoadEntry, i);
      g_autoptr (GBytes) slice = g_bytes_new_from_bytes (bytes, data_start + entry->begin,
                                                         entry->end - entry->begin);
      g_autoptr (GBytes) host_bytes = little_endian_bytes (slice, entry->dtype);
      LtTensor *tensor;

      /* JSON-GLib keeps one of two members with the same name; never
       * mind, but two names must never make one tensor. */
      if (g_hash_table_contains (tensors, entry->name))
        {
          lt_file_set_error (error, LT_ERROR_FILE_FORMAT, source,
                             _("the header names tensor “%s” twice"), entry->name);
          return NULL;
        }
      if (entry->dtype == LT_DTYPE_BOOL && !check_bools (slice, entry->name, source, error))
        return NULL;
      tensor = lt_tensor_new_from_bytes (entry->dtype, host_bytes, entry->sizes, entry->n_dims,
                                         error);
      if (tensor == NULL)
        {
          g_prefix_error (error, _("%s: tensor “%s”: "), source, entry->name);
          return NULL;
        }
      g_hash_table_insert (tensors, g_strdup (entry->name), tensor);
    }
  return g_steal_pointer (&tensors);
}

static GHashTable *
load_from_bytes (GBytes      *bytes,
                 const char  *source,
                 GHashTable **out_metadata,
                 GError     **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  guint64 header_size;
  gsize data_start;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *header;
  g_autoptr (GHashTable) metadata = NULL;
  g_autoptr (GArray) entries = NULL;
  g_autoptr (GHashTable) tensors = NULL;

  if (!read_header_size (data, size, source, &header_size, error))
    return NULL;
  parser = parse_header ((const char *) data + LENGTH_SIZE, header_size, source, error);
  if (parser == NULL)
    return NULL;
  header = json_node_get_object (json_parser_get_root (parser));
  data_start = LENGTH_SIZE + header_size;

  metadata = read_metadata (json_object_get_member (header, METADATA_KEY), source, error);
  if (metadata == NULL)
    return NULL;
  entries = read_entries (header, size - data_start, source, error);
  if (entries == NULL || !check_tiling (entries, size - data_start, source, error))
    return NULL;
  tensors = make_tensors (bytes, data_start, entries, source, error);
  if (tensors == NULL)
    return NULL;

  if (out_metadata != NULL)
    *out_metadata = g_steal_pointer (&metadata);
  return g_steal_pointer (&tensors);
}

/**
 * lt_safetensors_load_from_bytes:
 * @bytes: the contents of a safetensors file
 * @metadata: (out) (optional) (transfer container) (nullable) (element-type utf8 utf8):
 *   return location for the header's `__metadata__`, an empty table when
 *   there is none
 * @error: return location for a #GError
 *
 * Reads the tensors of a safetensors file held in memory. Each is
 * contiguous, in a copy of @bytes that the tensors share: writes through
 * them never reach @bytes.
 *
 * Nothing in @bytes is trusted: a malformed header, a size or an offset
 * that does not add up, data missing, or bytes left over that belong to no
 * tensor are all errors.
 *
 * The tables own their keys and values: g_hash_table_unref() releases
 * everything. (Hence `transfer container`: language bindings take their own
 * references to the elements, then drop the table.)
 *
 * Returns: (transfer container) (element-type utf8 LtTensor): the tensors by
 *   name, or %NULL with @error set: %LT_ERROR_FILE_FORMAT when @bytes do not
 *   follow the format, %LT_ERROR_DTYPE for a dtype libtensor does not have
 *   (U16, U32, U64, the 8-, 6- and 4-bit floats)
 */
GHashTable *
lt_safetensors_load_from_bytes (GBytes      *bytes,
                                GHashTable **metadata,
                                GError     **error)
{
  g_autoptr (GBytes) copy = NULL;
  gconstpointer data;
  gsize size;
  gpointer memory;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* GBytes are immutable (and may be read-only memory): the tensors,
   * which may be written, get memory of their own. */
  data = g_bytes_get_data (bytes, &size);
  memory = lt_memory_try_alloc (size, FALSE);
  if (memory == NULL)
    {
      lt_file_set_error (error, LT_ERROR_OUT_OF_MEMORY, BYTES_SOURCE,
                         _("cannot allocate %zu bytes for a copy of the file's "
                           "contents"), size);
      return NULL;
    }
  if (size > 0)
    memcpy (memory, data, size);
  copy = g_bytes_new_take (memory, size);
  return load_from_bytes (copy, BYTES_SOURCE, metadata, error);
}

/**
 * lt_safetensors_load:
 * @filename: (type filename): the file to read
 * @metadata: (out) (optional) (transfer container) (nullable) (element-type utf8 utf8):
 *   return location for the header's `__metadata__`, an empty table when
 *   there is none
 * @error: return location for a #GError
 *
 * Reads the tensors of a safetensors file. The file is mapped into memory,
 * privately: tensors whose data is aligned share the mapping without
 * copying (the others get a copy), writes through them do not reach the
 * file, and the mapping lives as long as any of them.
 *
 * As with any mapped file, the tensors read the file's current contents:
 * while they live, the file must not be rewritten in place (truncating it
 * then makes reading them fail with SIGBUS). Files are safe to replace by
 * renaming a new file over them, as lt_safetensors_save() does; copy the
 * tensors (lt_tensor_clone()) to keep them past another program's write.
 *
 * Returns: (transfer container) (element-type utf8 LtTensor): the tensors by
 *   name, or %NULL with @error set as for lt_safetensors_load_from_bytes(),
 *   with messages that name the file, or in %G_FILE_ERROR when the file
 *   cannot be read
 */
GHashTable *
lt_safetensors_load (const char  *filename,
                     GHashTable **metadata,
                     GError     **error)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *source = NULL;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bytes = lt_file_map (filename, error);
  if (bytes == NULL)
    return NULL;
  source = g_filename_display_name (filename);
  return load_from_bytes (bytes, source, metadata, error);
}
