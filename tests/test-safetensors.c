/* test-safetensors.c: tables of tensors in safetensors files and bytes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

#include <glib/gstdio.h>

/* A temporary directory for the files a test writes, removed afterwards. */
typedef struct
{
  char *path;
} TempDir;

static void
temp_dir_set_up (TempDir       *fixture,
                 gconstpointer  data)
{
  g_autoptr (GError) error = NULL;

  fixture->path = g_dir_make_tmp ("lt-safetensors-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
temp_dir_tear_down (TempDir       *fixture,
                    gconstpointer  data)
{
  g_autoptr (GDir) dir = g_dir_open (fixture->path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (fixture->path, name, NULL);

      g_assert_cmpint (g_unlink (file), ==, 0);
    }
  g_assert_cmpint (g_rmdir (fixture->path), ==, 0);
  g_free (fixture->path);
}

static guint
temp_dir_count_files (TempDir *fixture)
{
  g_autoptr (GDir) dir = g_dir_open (fixture->path, 0, NULL);
  guint count = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    count++;
  return count;
}

static GHashTable *
tensor_table_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

static void
add_literal (GHashTable *table,
             const char *name,
             const char *literal,
             LtDType     dtype)
{
  g_autoptr (GError) error = NULL;
  LtTensor *tensor = lt_tensor_new_from_literal_with_dtype (literal, dtype, &error);

  g_assert_no_error (error);
  g_hash_table_insert (table, g_strdup (name), tensor);
}

/* The bytes of a file: the little-endian length of @header, @header, @data. */
static GBytes *
file_bytes (const char   *header,
            gsize         header_size,
            const guint8 *data,
            gsize         data_size)
{
  GByteArray *bytes = g_byte_array_new ();
  guint8 length[8];

  for (guint i = 0; i < 8; i++)
    length[i] = (guint8) ((guint64) header_size >> (8 * i));
  g_byte_array_append (bytes, length, 8);
  g_byte_array_append (bytes, (const guint8 *) header, (guint) header_size);
  if (data_size > 0)
    g_byte_array_append (bytes, data, (guint) data_size);
  return g_byte_array_free_to_bytes (bytes);
}

static void
assert_bytes_equal (GBytes       *actual,
                    const guint8 *expected,
                    gsize         expected_size)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (actual, &size);

  g_assert_cmpmem (data, size, expected, expected_size);
}

/* Every tensor of @expected is in @actual, contiguous, with the same dtype,
 * sizes and values, and nothing else is. */
static void
assert_same_tensors (GHashTable *actual,
                     GHashTable *expected)
{
  GHashTableIter iter;
  gpointer name, value;

  g_assert_cmpuint (g_hash_table_size (actual), ==, g_hash_table_size (expected));
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &name, &value))
    {
      LtTensor *want = value;
      LtTensor *got = g_hash_table_lookup (actual, name);
      guint n_want, n_got;
      const gint64 *want_sizes = lt_tensor_get_sizes (want, &n_want);
      const gint64 *got_sizes;

      g_test_message ("tensor %s", (const char *) name);
      g_assert_nonnull (got);
      got_sizes = lt_tensor_get_sizes (got, &n_got);
      g_assert_cmpint (lt_tensor_get_dtype (got), ==, lt_tensor_get_dtype (want));
      lt_test_assert_array (G_STRLOC, "sizes", got_sizes, n_got, want_sizes, n_want);
      g_assert_true (lt_tensor_is_contiguous (got));
      g_assert_true (lt_tensor_equal (got, want));
    }
}

/* One tensor of each dtype safetensors shares with libtensor, and the
 * shapes and layouts that need care: 0-dim, empty, transposed, sliced. */
static GHashTable *
every_kind_of_tensor (void)
{
  g_autoptr (GHashTable) table = tensor_table_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) matrix = NULL;
  g_autoptr (LtTensor) wide = NULL;
  LtTensor *view;

  add_literal (table, "bool", "[[True, False, True], [False, False, True]]", LT_DTYPE_BOOL);
  add_literal (table, "uint8", "[[0, 1, 2], [200, 254, 255]]", LT_DTYPE_UINT8);
  add_literal (table, "int8", "[[-128, -1, 0], [1, 100, 127]]", LT_DTYPE_INT8);
  add_literal (table, "int16", "[[-32768, -2, 3], [4, 5, 32767]]", LT_DTYPE_INT16);
  add_literal (table, "float16", "[[0.5, -1.25, 65504.0], [0.0, 1e-7, -2.0]]",
               LT_DTYPE_FLOAT16);
  add_literal (table, "bfloat16", "[[0.5, -1.25, 3e38], [0.0, 1e-30, -2.0]]", LT_DTYPE_BFLOAT16);
  add_literal (table, "int32", "[[-2147483648, -1, 0], [1, 7, 2147483647]]", LT_DTYPE_INT32);
  add_literal (table, "float32", "[[0.1, -2.5, 3.0], [1e-40, 3e38, -0.0]]", LT_DTYPE_FLOAT32);
  add_literal (table, "complex64", "[[1+2j, -3.5j, 0], [4, -1-1j, 0.25+0.5j]]",
               LT_DTYPE_COMPLEX64);
  add_literal (table, "float64", "[[0.1, -2.5, 1e300], [5e-324, 2.0, -7.0]]", LT_DTYPE_FLOAT64);
  add_literal (table, "int64", "[[-9223372036854775807, -1, 0], [1, 2, 9223372036854775807]]",
               LT_DTYPE_INT64);
  add_literal (table, "scalar", "3.5", LT_DTYPE_FLOAT32);
  add_literal (table, "scalar-int", "-4", LT_DTYPE_INT16);

  g_hash_table_insert (table, g_strdup ("empty"),
                       lt_tensor_new_zeros (LT_DTYPE_INT32, I64S (0, 3), 2, &error));
  g_assert_no_error (error);
  g_hash_table_insert (table, g_strdup ("empty-float64"),
                       lt_tensor_new_zeros (LT_DTYPE_FLOAT64, I64S (2, 0), 2, &error));
  g_assert_no_error (error);

  matrix = lt_test_arange_shaped (LT_DTYPE_FLOAT64, 3, 4);
  view = lt_tensor_transpose (matrix, 0, 1, &error);
  g_assert_no_error (error);
  g_assert_false (lt_tensor_is_contiguous (view));
  g_hash_table_insert (table, g_strdup ("transposed"), view);

  wide = lt_test_arange_shaped (LT_DTYPE_INT16, 3, 5);
  view = lt_tensor_index (wide, "[1:, ::2]", &error);
  g_assert_no_error (error);
  g_assert_false (lt_tensor_is_contiguous (view));
  g_hash_table_insert (table, g_strdup ("sliced"), view);

  /* A view that starts inside its storage but is contiguous. */
  view = lt_tensor_index (wide, "[1:]", &error);
  g_assert_no_error (error);
  g_assert_cmpint (lt_tensor_get_storage_offset (view), ==, 5);
  g_hash_table_insert (table, g_strdup ("offset"), view);

  /* Names are any strings. */
  add_literal (table, "", "[1, 2]", LT_DTYPE_UINT8);
  add_literal (table, "tëst “quoted” \"name\"\n", "[3]", LT_DTYPE_INT8);

  return g_steal_pointer (&table);
}

static void
test_round_trip_bytes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = every_kind_of_tensor ();
  g_autoptr (GBytes) bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_autoptr (GHashTable) loaded = NULL;
  g_autoptr (GHashTable) metadata = NULL;

  g_assert_no_error (error);
  loaded = lt_safetensors_load_from_bytes (bytes, &metadata, &error);
  g_assert_no_error (error);
  assert_same_tensors (loaded, tensors);

  /* No __metadata__ in the header: an empty table. */
  g_assert_nonnull (metadata);
  g_assert_cmpuint (g_hash_table_size (metadata), ==, 0);
}

static void
test_round_trip_file (TempDir       *fixture,
                      gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = every_kind_of_tensor ();
  g_autofree char *filename = g_build_filename (fixture->path, "model.safetensors", NULL);
  g_autoptr (GHashTable) loaded = NULL;
  g_autoptr (GBytes) expected = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (lt_safetensors_save (filename, tensors, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (temp_dir_count_files (fixture), ==, 1);

  /* Without metadata, the file is what the bytes variant makes. */
  expected = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (filename, &contents, &length, &error));
  g_assert_no_error (error);
  assert_bytes_equal (expected, (const guint8 *) contents, length);

  loaded = lt_safetensors_load (filename, NULL, &error);
  g_assert_no_error (error);
  assert_same_tensors (loaded, tensors);
}

static void
test_round_trip_empty_table (void)
{
  /* The crate's test_empty: "{}" padded to 8 bytes. */
  static const guint8 expected[] = { 8, 0, 0, 0, 0, 0, 0, 0, '{', '}', ' ', ' ', ' ', ' ', ' ',
                                     ' ' };
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GBytes) bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_autoptr (GHashTable) loaded = NULL;

  g_assert_no_error (error);
  assert_bytes_equal (bytes, expected, sizeof expected);
  loaded = lt_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (loaded), ==, 0);
}

static void
test_metadata_round_trip (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GHashTable) metadata = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) empty = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) loaded = NULL;
  g_autoptr (GHashTable) loaded_metadata = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) with_empty = NULL;
  g_autoptr (GBytes) with_null = NULL;

  add_literal (tensors, "w", "[1.5, 2.5]", LT_DTYPE_FLOAT32);
  g_hash_table_insert (metadata, "format", "pt");
  g_hash_table_insert (metadata, "note", "ünïcode, \"quotes\", a\ttab\nand a newline");
  g_hash_table_insert (metadata, "", "");
  g_hash_table_insert (metadata, "__metadata__", "a key like any other");

  bytes = lt_safetensors_to_bytes (tensors, metadata, &error);
  g_assert_no_error (error);
  loaded = lt_safetensors_load_from_bytes (bytes, &loaded_metadata, &error);
  g_assert_no_error (error);
  assert_same_tensors (loaded, tensors);
  g_assert_cmpuint (g_hash_table_size (loaded_metadata), ==, 4);
  g_assert_cmpstr (g_hash_table_lookup (loaded_metadata, "format"), ==, "pt");
  g_assert_cmpstr (g_hash_table_lookup (loaded_metadata, "note"), ==,
                   "ünïcode, \"quotes\", a\ttab\nand a newline");
  g_assert_cmpstr (g_hash_table_lookup (loaded_metadata, ""), ==, "");
  g_assert_cmpstr (g_hash_table_lookup (loaded_metadata, "__metadata__"), ==,
                   "a key like any other");

  /* Empty metadata is left out of the header, as no metadata is. */
  with_empty = lt_safetensors_to_bytes (tensors, empty, &error);
  g_assert_no_error (error);
  with_null = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (with_empty, with_null));
  g_assert_null (g_strstr_len ((const char *) g_bytes_get_data (with_empty, NULL) + 8,
                              (gssize) g_bytes_get_size (with_empty) - 8, "__metadata__"));
}

static void
assert_header (GBytes     *bytes,
               const char *expected_json)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  guint64 header_size = 0;
  gsize json_length = strlen (expected_json);

  g_assert_cmpuint (size, >=, 8);
  for (guint i = 0; i < 8; i++)
    header_size |= (guint64) data[i] << (8 * i);
  g_assert_cmpuint (header_size % 8, ==, 0);
  g_assert_cmpuint (header_size, ==, (json_length + 7) / 8 * 8);
  g_assert_cmpmem (data + 8, json_length, expected_json, json_length);
  for (gsize i = json_length; i < header_size; i++)
    g_assert_cmpint (data[8 + i], ==, ' ');
}

/* The crate's test vectors (test_serialization and
 * test_serialization_forced_alignement in safetensors/src/tensor.rs). */
static void
test_save_crate_test_vectors (void)
{
  static const guint8 values[] = { 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0,
                                   128, 64, 0, 0, 160, 64 };
  static const char attn_0[] =
    "{\"attn.0\":{\"dtype\":\"F32\",\"shape\":[1,2,3],\"data_offsets\":[0,24]}}";
  static const char attn0[] =
    "{\"attn0\":{\"dtype\":\"F32\",\"shape\":[1,1,2,3],\"data_offsets\":[0,24]}}       ";
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GBytes) expected = NULL;
  g_autoptr (GBytes) bytes = NULL;

  add_literal (tensors, "attn.0", "[[[0, 1, 2], [3, 4, 5]]]", LT_DTYPE_FLOAT32);
  bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_no_error (error);
  expected = file_bytes (attn_0, strlen (attn_0), values, sizeof values);
  g_assert_cmpuint (strlen (attn_0), ==, 64);
  g_assert_true (g_bytes_equal (bytes, expected));

  g_hash_table_remove_all (tensors);
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_pointer (&expected, g_bytes_unref);
  add_literal (tensors, "attn0", "[[[[0, 1, 2], [3, 4, 5]]]]", LT_DTYPE_FLOAT32);
  bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_no_error (error);
  expected = file_bytes (attn0, strlen (attn0), values, sizeof values);
  g_assert_cmpuint (strlen (attn0), ==, 72);
  g_assert_true (g_bytes_equal (bytes, expected));
}

/* The crate's test_empty with metadata {"framework": "pt"}. */
static void
test_save_crate_metadata_vector (void)
{
  static const char header[] = "{\"__metadata__\":{\"framework\":\"pt\"}}     ";
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GHashTable) metadata = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) expected = file_bytes (header, strlen (header), NULL, 0);

  g_hash_table_insert (metadata, "framework", "pt");
  bytes = lt_safetensors_to_bytes (tensors, metadata, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 48);
  g_assert_true (g_bytes_equal (bytes, expected));
}

/* The crate sorts by its Dtype enum, descending (I64, F64, C64, F32, I32,
 * BF16, F16, I16, I8, U8, BOOL), then by name; metadata comes first, its
 * keys here sorted. */
static void
test_save_order (void)
{
  static const char expected[] =
    "{\"__metadata__\":{\"a\":\"1\",\"b\":\"2\"},"
    "\"d\":{\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[0,8]},"
    "\"e\":{\"dtype\":\"F64\",\"shape\":[1],\"data_offsets\":[8,16]},"
    "\"f\":{\"dtype\":\"C64\",\"shape\":[1],\"data_offsets\":[16,24]},"
    "\"h1\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[24,28]},"
    "\"h2\":{\"dtype\":\"F32\",\"shape\":[2,0],\"data_offsets\":[28,28]},"
    "\"i\":{\"dtype\":\"I32\",\"shape\":[1],\"data_offsets\":[28,32]},"
    "\"c\":{\"dtype\":\"BF16\",\"shape\":[1],\"data_offsets\":[32,34]},"
    "\"a\":{\"dtype\":\"F16\",\"shape\":[1],\"data_offsets\":[34,36]},"
    "\"b\":{\"dtype\":\"I16\",\"shape\":[1],\"data_offsets\":[36,38]},"
    "\"j\":{\"dtype\":\"I8\",\"shape\":[1],\"data_offsets\":[38,39]},"
    "\"k\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[39,40]},"
    "\"g\":{\"dtype\":\"BOOL\",\"shape\":[1],\"data_offsets\":[40,41]}}";
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GHashTable) metadata = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GBytes) bytes = NULL;

  add_literal (tensors, "a", "[1]", LT_DTYPE_FLOAT16);
  add_literal (tensors, "b", "[1]", LT_DTYPE_INT16);
  add_literal (tensors, "c", "[1]", LT_DTYPE_BFLOAT16);
  add_literal (tensors, "d", "[1]", LT_DTYPE_INT64);
  add_literal (tensors, "e", "[1]", LT_DTYPE_FLOAT64);
  add_literal (tensors, "f", "[1]", LT_DTYPE_COMPLEX64);
  add_literal (tensors, "g", "[1]", LT_DTYPE_BOOL);
  add_literal (tensors, "h2", "[[], []]", LT_DTYPE_FLOAT32);
  add_literal (tensors, "h1", "1", LT_DTYPE_FLOAT32);
  add_literal (tensors, "i", "[1]", LT_DTYPE_INT32);
  add_literal (tensors, "j", "[1]", LT_DTYPE_INT8);
  add_literal (tensors, "k", "[1]", LT_DTYPE_UINT8);
  g_hash_table_insert (metadata, "b", "2");
  g_hash_table_insert (metadata, "a", "1");

  bytes = lt_safetensors_to_bytes (tensors, metadata, &error);
  g_assert_no_error (error);
  assert_header (bytes, expected);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 8 + (sizeof expected - 1 + 7) / 8 * 8 + 41);
}

/* Little-endian element bytes, whatever the host. */
static void
test_save_little_endian (void)
{
  static const char header[] =
    "{\"x\":{\"dtype\":\"I32\",\"shape\":[2],\"data_offsets\":[0,8]},"
    "\"y\":{\"dtype\":\"F16\",\"shape\":[1],\"data_offsets\":[8,10]}}";
  static const guint8 data[] = { 0x04, 0x03, 0x02, 0x01, 0xfe, 0xff, 0xff, 0xff, 0x00, 0x3c };
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GBytes) bytes = NULL;
  gsize size;
  const guint8 *contents;

  add_literal (tensors, "x", "[16909060, -2]", LT_DTYPE_INT32);
  add_literal (tensors, "y", "[1.0]", LT_DTYPE_FLOAT16);
  bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_no_error (error);
  assert_header (bytes, header);
  contents = g_bytes_get_data (bytes, &size);
  g_assert_cmpmem (contents + size - sizeof data, sizeof data, data, sizeof data);
}

static void
test_save_refuses_complex128 (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GBytes) bytes = NULL;

  add_literal (tensors, "fine", "[1.0]", LT_DTYPE_FLOAT32);
  add_literal (tensors, "z", "[1+1j]", LT_DTYPE_COMPLEX128);
  bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_true (g_str_has_prefix (error->message, "safetensors data: "));
  g_assert_nonnull (strstr (error->message, "tensor “z” is complex128"));
  g_assert_nonnull (strstr (error->message, "complex64"));
}

static void
test_save_refuses_metadata_name (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GBytes) bytes = NULL;

  add_literal (tensors, "__metadata__", "[1.0]", LT_DTYPE_FLOAT32);
  bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "named “__metadata__”"));
}

static void
test_save_refuses_header_too_long (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GHashTable) metadata = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *long_value = g_malloc (100000001);
  g_autoptr (GBytes) bytes = NULL;

  memset (long_value, 'x', 100000000);
  long_value[100000000] = '\0';
  g_hash_table_insert (metadata, "long", long_value);
  bytes = lt_safetensors_to_bytes (tensors, metadata, &error);
  g_assert_null (bytes);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "more than the 100000000"));
}

static void
test_save_failure_keeps_old_file (TempDir       *fixture,
                                  gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *filename = g_build_filename (fixture->path, "model.safetensors", NULL);
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GHashTable) bad = tensor_table_new ();
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *display = g_filename_display_name (filename);
  gsize before_length, after_length;

  add_literal (tensors, "w", "[1.0, 2.0]", LT_DTYPE_FLOAT32);
  g_assert_true (lt_safetensors_save (filename, tensors, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (filename, &before, &before_length, &error));
  g_assert_no_error (error);

  add_literal (bad, "w", "[3.0, 4.0, 5.0]", LT_DTYPE_FLOAT32);
  add_literal (bad, "z", "[1j]", LT_DTYPE_COMPLEX128);
  g_assert_false (lt_safetensors_save (filename, bad, NULL, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_true (g_str_has_prefix (error->message, display));

  g_assert_true (g_file_get_contents (filename, &after, &after_length, NULL));
  g_assert_cmpmem (after, after_length, before, before_length);
  g_assert_cmpuint (temp_dir_count_files (fixture), ==, 1);
}

static void
test_save_unwritable_directory (TempDir       *fixture,
                                gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *filename = g_build_filename (fixture->path, "no-such-dir", "m.safetensors",
                                                NULL);
  g_autoptr (GHashTable) tensors = tensor_table_new ();

  add_literal (tensors, "w", "[1.0]", LT_DTYPE_FLOAT32);
  g_assert_false (lt_safetensors_save (filename, tensors, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, filename));
  g_clear_error (&error);

  /* Nor is a folder a file. */
  g_assert_null (lt_safetensors_load (fixture->path, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
}

static void
test_save_device_tensor (void)
{
  g_autoptr (LtDevice) device = lt_device_new (LT_DEVICE_TYPE_OPENCL, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GHashTable) on_device = tensor_table_new ();
  g_autoptr (GHashTable) loaded = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (LtTensor) transposed = NULL;
  LtTensor *matrix;

  if (!lt_device_is_available (device, &error))
    {
      g_test_skip (error->message);
      return;
    }

  add_literal (tensors, "m", "[[1, 2, 3], [4, 5, 6]]", LT_DTYPE_INT32);
  matrix = g_hash_table_lookup (tensors, "m");
  g_hash_table_insert (on_device, g_strdup ("m"), lt_tensor_to_device (matrix, device, &error));
  g_assert_no_error (error);
  transposed = lt_tensor_t (g_hash_table_lookup (on_device, "m"), &error);
  g_assert_no_error (error);
  g_hash_table_insert (on_device, g_strdup ("mt"), g_object_ref (transposed));
  g_hash_table_insert (tensors, g_strdup ("mt"), lt_tensor_t (matrix, &error));
  g_assert_no_error (error);

  bytes = lt_safetensors_to_bytes (on_device, NULL, &error);
  g_assert_no_error (error);
  loaded = lt_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  assert_same_tensors (loaded, tensors);
}

/* A U8 tensor of one byte puts the F32 tensor after it at an odd address:
 * it is copied, and reads the same. */
static void
test_load_misaligned (TempDir       *fixture,
                      gconstpointer  data)
{
  static const char header[] =
    "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
    "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[1,9]}}      ";
  /* 7, then 1.5 and -2.0 as little-endian float32. */
  static const guint8 values[] = { 7, 0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0xc0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = file_bytes (header, strlen (header), values, sizeof values);
  g_autofree char *filename = g_build_filename (fixture->path, "odd.safetensors", NULL);
  g_autoptr (GHashTable) from_bytes = NULL;
  g_autoptr (GHashTable) from_file = NULL;

  g_assert_cmpuint (strlen (header) % 8, ==, 0);
  from_bytes = lt_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  lt_assert_values (g_hash_table_lookup (from_bytes, "a"), 7);
  lt_assert_values (g_hash_table_lookup (from_bytes, "b"), 1.5, -2.0);

  g_assert_true (g_file_set_contents (filename, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  from_file = lt_safetensors_load (filename, NULL, &error);
  g_assert_no_error (error);
  lt_assert_values (g_hash_table_lookup (from_file, "a"), 7);
  lt_assert_values (g_hash_table_lookup (from_file, "b"), 1.5, -2.0);
}

/* Tensors loaded from bytes have memory of their own: GBytes are
 * immutable, and two loads of the same bytes must not share elements. */
static void
test_load_from_bytes_copies (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) tensors = every_kind_of_tensor ();
  g_autoptr (GBytes) bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_autoptr (GBytes) before = NULL;
  g_autoptr (GHashTable) first = NULL;
  g_autoptr (GHashTable) second = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_assert_no_error (error);
  before = g_bytes_new (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  first = lt_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  second = lt_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);

  g_hash_table_iter_init (&iter, first);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      LtTensor *other = g_hash_table_lookup (second, key);
      g_autoptr (LtTensor) snapshot = lt_tensor_clone (other, &error);

      g_assert_no_error (error);
      if (lt_tensor_get_numel (value) == 0)
        continue;
      g_assert_true (lt_tensor_fill (value, 1, &error));
      g_assert_no_error (error);
      g_assert_true (lt_tensor_equal (other, snapshot));
    }
  g_assert_true (g_bytes_equal (bytes, before));
}

/* Loaded tensors can be written; the file stays as it was. */
static void
test_load_writes_stay_in_memory (TempDir       *fixture,
                                 gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *filename = g_build_filename (fixture->path, "w.safetensors", NULL);
  g_autoptr (GHashTable) tensors = tensor_table_new ();
  g_autoptr (GHashTable) loaded = NULL;
  g_autoptr (GHashTable) again = NULL;

  add_literal (tensors, "w", "[1.0, 2.0, 3.0]", LT_DTYPE_FLOAT64);
  g_assert_true (lt_safetensors_save (filename, tensors, NULL, &error));
  g_assert_no_error (error);

  loaded = lt_safetensors_load (filename, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_set_double (g_hash_table_lookup (loaded, "w"), I64S (1), 1, 42.0,
                                       &error));
  g_assert_no_error (error);
  lt_assert_values (g_hash_table_lookup (loaded, "w"), 1.0, 42.0, 3.0);

  again = lt_safetensors_load (filename, NULL, &error);
  g_assert_no_error (error);
  lt_assert_values (g_hash_table_lookup (again, "w"), 1.0, 2.0, 3.0);
}

static void
test_load_missing_file (TempDir       *fixture,
                        gconstpointer  data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *filename = g_build_filename (fixture->path, "absent.safetensors", NULL);
  GHashTable *metadata = NULL;
  g_autoptr (GHashTable) loaded = lt_safetensors_load (filename, &metadata, &error);

  g_assert_null (loaded);
  g_assert_null (metadata);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, filename));
}

/* Errors in a file's contents start with the file's name. */
static void
test_load_errors_name_the_file (TempDir       *fixture,
                                gconstpointer  data)
{
  static const char header[] = "{\"w\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}";
  g_autoptr (GError) error = NULL;
  g_autofree char *filename = g_build_filename (fixture->path, "model.safetensors", NULL);
  g_autofree char *display = g_filename_display_name (filename);
  g_autofree char *expected = g_strdup_printf ("%s: the header says tensor “w” ends at byte 12, "
                                               "past the data's 8 bytes",
                                               display);
  g_autoptr (GBytes) bytes = file_bytes (header, strlen (header), (const guint8 *) "12345678", 8);
  g_autoptr (GHashTable) loaded = NULL;

  g_assert_true (g_file_set_contents (filename, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  loaded = lt_safetensors_load (filename, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, LT_ERROR, LT_ERROR_FILE_FORMAT);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (filename, "abc", 3, &error));
  g_assert_no_error (error);
  loaded = lt_safetensors_load (filename, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, LT_ERROR, LT_ERROR_FILE_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, display));
  g_assert_nonnull (strstr (error->message, "3 bytes are too few"));
}

typedef struct
{
  const char *name;
  const char *header;      /* NULL: raw is the whole file */
  gsize data_size;         /* bytes of data after the header, all 0x11 */
  const char *raw;
  gsize raw_size;
  LtError code;
  const char *message;     /* a part of the error message */
} HostileCase;

static const HostileCase hostile_cases[] = {
  { "too short", NULL, 0, "\x08\0\0\0\0", 5, LT_ERROR_FILE_FORMAT, "5 bytes are too few" },
  { "empty", NULL, 0, "", 0, LT_ERROR_FILE_FORMAT, "0 bytes are too few" },
  { "huge header length", NULL, 0, "\x01\xe1\xf5\x05\0\0\0\0{}", 10, LT_ERROR_FILE_FORMAT,
    "the header length is 100000001 bytes, more than the 100000000" },
  { "header length 2^64 - 1", NULL, 0, "\xff\xff\xff\xff\xff\xff\xff\xff{}", 10,
    LT_ERROR_FILE_FORMAT, "more than the 100000000" },
  { "header past the end", NULL, 0, "\x64\0\0\0\0\0\0\0{}        ", 18, LT_ERROR_FILE_FORMAT,
    "the header length is 100 bytes, but only 10 bytes follow it" },
  { "not UTF-8", "{\"\xff\xfe\":1}", 0, NULL, 0, LT_ERROR_FILE_FORMAT, "not valid UTF-8" },
  { "NUL in header", NULL, 0, "\x08\0\0\0\0\0\0\0{}\0     ", 16, LT_ERROR_FILE_FORMAT,
    "not valid UTF-8" },
  { "not JSON", "{\"w\": ", 0, NULL, 0, LT_ERROR_FILE_FORMAT, "the header is not valid JSON" },
  { "JSON then junk", "{} x", 0, NULL, 0, LT_ERROR_FILE_FORMAT, "the header is not valid JSON" },
  { "not an object", "[1, 2]", 0, NULL, 0, LT_ERROR_FILE_FORMAT, "not a JSON object" },
  { "only spaces", "        ", 0, NULL, 0, LT_ERROR_FILE_FORMAT, "not a JSON object" },
  { "entry not an object", "{\"w\": [0, 4]}", 4, NULL, 0, LT_ERROR_FILE_FORMAT,
    "the header's entry for tensor “w” is not an object" },
  { "extra key",
    "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4],\"order\":\"C\"}}", 4, NULL,
    0, LT_ERROR_FILE_FORMAT, "tensor “w” has the key “order”" },
  { "missing shape", "{\"w\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", 4, NULL, 0,
    LT_ERROR_FILE_FORMAT, "tensor “w” has no shape" },
  { "dtype not a string", "{\"w\":{\"dtype\":4,\"shape\":[1],\"data_offsets\":[0,4]}}", 4,
    NULL, 0, LT_ERROR_FILE_FORMAT, "the dtype of tensor “w” is not a string" },
  { "unknown dtype", "{\"w\":{\"dtype\":\"f32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4,
    NULL, 0, LT_ERROR_FILE_FORMAT, "dtype “f32”, which is not a safetensors dtype" },
  { "bool bytes", "{\"w\":{\"dtype\":\"BOOL\",\"shape\":[4],\"data_offsets\":[0,4]}}", 4, NULL,
    0, LT_ERROR_FILE_FORMAT, "bool element 0 of tensor “w” is 17, not 0 or 1" },
  { "U16", "{\"w\":{\"dtype\":\"U16\",\"shape\":[2],\"data_offsets\":[0,4]}}", 4, NULL, 0,
    LT_ERROR_DTYPE, "tensor “w” has dtype U16, which libtensor does not have" },
  { "U64", "{\"w\":{\"dtype\":\"U64\",\"shape\":[],\"data_offsets\":[0,8]}}", 8, NULL, 0,
    LT_ERROR_DTYPE, "dtype U64" },
  { "F8_E4M3", "{\"w\":{\"dtype\":\"F8_E4M3\",\"shape\":[4],\"data_offsets\":[0,4]}}", 4,
    NULL, 0, LT_ERROR_DTYPE, "dtype F8_E4M3" },
  { "shape not an array", "{\"w\":{\"dtype\":\"F32\",\"shape\":1,\"data_offsets\":[0,4]}}", 4,
    NULL, 0, LT_ERROR_FILE_FORMAT, "the shape of tensor “w” is not an array" },
  { "negative size", "{\"w\":{\"dtype\":\"F32\",\"shape\":[2,-1],\"data_offsets\":[0,4]}}", 4,
    NULL, 0, LT_ERROR_FILE_FORMAT, "size 1 in the shape of tensor “w” is not an integer >= 0" },
  { "float size", "{\"w\":{\"dtype\":\"F32\",\"shape\":[1.0],\"data_offsets\":[0,4]}}", 4, NULL,
    0, LT_ERROR_FILE_FORMAT, "size 0 in the shape of tensor “w” is not an integer >= 0" },
  { "size 2^64 + 1",
    "{\"w\":{\"dtype\":\"F32\",\"shape\":[18446744073709551617],\"data_offsets\":[0,4]}}", 4,
    NULL, 0, LT_ERROR_FILE_FORMAT,
    "the header has the integer 18446744073709551617, which does not fit in 64 bits" },
  { "overflowing shape",
    "{\"w\":{\"dtype\":\"F32\",\"shape\":[1099511627776,1099511627776,1099511627776],"
    "\"data_offsets\":[0,4]}}", 4, NULL, 0, LT_ERROR_FILE_FORMAT,
    "the shape [1099511627776, 1099511627776, 1099511627776] of tensor “w” has more elements "
    "than fit in 64 bits" },
  { "overflowing strides of an empty shape",
    "{\"w\":{\"dtype\":\"F32\",\"shape\":[0,4294967296,4294967296],\"data_offsets\":[0,0]}}", 0,
    NULL, 0, LT_ERROR_FILE_FORMAT, "has more elements than fit in 64 bits" },
  { "overflowing byte size",
    "{\"w\":{\"dtype\":\"F64\",\"shape\":[4611686018427387904],\"data_offsets\":[0,8]}}", 8,
    NULL, 0, LT_ERROR_FILE_FORMAT, "takes more bytes than fit in 64 bits" },
  { "offsets not a pair", "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4]}}", 4,
    NULL, 0, LT_ERROR_FILE_FORMAT, "the data_offsets of tensor “w” are not two integers >= 0" },
  { "offsets negative", "{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[-4,0]}}", 4,
    NULL, 0, LT_ERROR_FILE_FORMAT, "are not two integers >= 0" },
  { "end before begin", "{\"w\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[4,0]}}", 4,
    NULL, 0, LT_ERROR_FILE_FORMAT, "end at byte 0, before they begin at byte 4" },
  { "shape and offsets disagree",
    "{\"w\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,20]}}", 20, NULL, 0,
    LT_ERROR_FILE_FORMAT,
    "tensor “w” is float32 of shape [2, 3], which takes 24 bytes, but its data_offsets [0, 20] "
    "span 20" },
  { "offsets past the end", "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}",
    4, NULL, 0, LT_ERROR_FILE_FORMAT, "tensor “w” ends at byte 8, past the data's 4 bytes" },
  { "overlapping tensors",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
    "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8, NULL, 0,
    LT_ERROR_FILE_FORMAT, "tensors “a” and “b” overlap: “b” begins at byte 4, before “a” ends" },
  { "the same bytes twice",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
    "\"b\":{\"dtype\":\"I32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4, NULL, 0,
    LT_ERROR_FILE_FORMAT, "overlap" },
  { "an empty tensor inside another",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
    "\"e\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[4,4]}}", 8, NULL, 0,
    LT_ERROR_FILE_FORMAT, "tensors “a” and “e” overlap" },
  { "hole",
    "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
    "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,12]}}", 12, NULL, 0,
    LT_ERROR_FILE_FORMAT, "bytes 4 to 8 of the data belong to no tensor: a hole between “a” and "
    "“b”" },
  { "hole at the start", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8,
    NULL, 0, LT_ERROR_FILE_FORMAT, "bytes 0 to 4 of the data belong to no tensor" },
  { "trailing bytes", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 6,
    NULL, 0, LT_ERROR_FILE_FORMAT,
    "the data has 2 bytes after the last tensor ends at byte 4" },
  { "data but no tensor", "{}", 3, NULL, 0, LT_ERROR_FILE_FORMAT,
    "the data has 3 bytes, but the header describes no tensor" },
  { "metadata not an object", "{\"__metadata__\":[\"pt\"]}", 0, NULL, 0, LT_ERROR_FILE_FORMAT,
    "the header's “__metadata__” is not an object of strings" },
  { "metadata value not a string", "{\"__metadata__\":{\"format\":\"pt\",\"epoch\":3}}", 0,
    NULL, 0, LT_ERROR_FILE_FORMAT, "the metadata value of “epoch” is not a string" },
};

static void
test_load_hostile (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (hostile_cases); i++)
    {
      const HostileCase *c = &hostile_cases[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GHashTable) loaded = NULL;
      g_autofree guint8 *data = g_malloc (c->data_size + 1);
      GHashTable *metadata = NULL;

      g_test_message ("case: %s", c->name);
      memset (data, 0x11, c->data_size);
      if (c->header != NULL)
        bytes = file_bytes (c->header, strlen (c->header), data, c->data_size);
      else
        bytes = g_bytes_new (c->raw, c->raw_size);

      loaded = lt_safetensors_load_from_bytes (bytes, &metadata, &error);
      g_assert_null (loaded);
      g_assert_null (metadata);
      g_assert_error (error, LT_ERROR, (gint) c->code);
      g_test_message ("message: %s", error->message);
      g_assert_true (g_str_has_prefix (error->message, "safetensors data: "));
      g_assert_nonnull (strstr (error->message, c->message));
    }
}

/* Missing tensors and metadata values (None from Python) are errors, not
 * criticals. */
static void
test_save_refuses_missing_values (void)
{
  g_autoptr (GHashTable) tensors = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) metadata = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (LtTensor) tensor = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;

  g_hash_table_insert (tensors, "w", NULL);
  bytes = lt_safetensors_to_bytes (tensors, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "“w” names no tensor"));
  g_clear_error (&error);

  g_hash_table_insert (tensors, "w", tensor);
  g_hash_table_insert (metadata, "author", NULL);
  bytes = lt_safetensors_to_bytes (tensors, metadata, &error);
  g_assert_null (bytes);
  g_assert_error (error, LT_ERROR, LT_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "metadata key “author” has no value"));
}

/* A header nested a hundred thousand deep is refused before JSON-GLib,
 * which parses by recursion, can run out of stack on it. */
static void
test_load_deep_nesting (void)
{
  GString *header = g_string_new ("{\"x\":");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GHashTable) loaded = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (header, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (header, ']');
  g_string_append_c (header, '}');
  bytes = file_bytes (header->str, header->len, NULL, 0);
  g_string_free (header, TRUE);

  loaded = lt_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, LT_ERROR, LT_ERROR_FILE_FORMAT);
  g_assert_nonnull (strstr (error->message, "nests arrays or objects more than 32 deep"));
}

/* More dims than a tensor can have. */
static void
test_load_too_many_dims (void)
{
  GString *header = g_string_new ("{\"w\":{\"dtype\":\"U8\",\"shape\":[1");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GHashTable) loaded = NULL;

  for (guint i = 1; i < LT_MAX_DIMS + 1; i++)
    g_string_append (header, ",1");
  g_string_append (header, "],\"data_offsets\":[0,1]}}");
  bytes = file_bytes (header->str, header->len, (const guint8 *) "x", 1);
  g_string_free (header, TRUE);

  loaded = lt_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, LT_ERROR, LT_ERROR_FILE_FORMAT);
  g_assert_nonnull (strstr (error->message, "tensor “w” has 65 dims, more than the 64"));
}

/* What the crate's readers accept that its writer would not write: any
 * order of entries and offsets, no padding, metadata anywhere, a null
 * metadata, empty tensors anywhere in the data. */
static void
test_load_accepts_what_the_crate_accepts (void)
{
  static const char header[] =
    "{\"b\":{\"data_offsets\":[2,6],\"shape\":[2],\"dtype\":\"I16\"},"
    "\"__metadata__\":null,"
    "\"e\":{\"dtype\":\"F64\",\"shape\":[0,5],\"data_offsets\":[2,2]},"
    "\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]}}";
  /* a = [1, 255], b = [-2, 258] in little-endian int16. */
  static const guint8 data[] = { 1, 255, 0xfe, 0xff, 0x02, 0x01 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = file_bytes (header, strlen (header), data, sizeof data);
  g_autoptr (GHashTable) metadata = NULL;
  g_autoptr (GHashTable) loaded = lt_safetensors_load_from_bytes (bytes, &metadata, &error);
  LtTensor *e;

  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (loaded), ==, 3);
  g_assert_cmpuint (g_hash_table_size (metadata), ==, 0);
  lt_assert_values (g_hash_table_lookup (loaded, "a"), 1, 255);
  lt_assert_values (g_hash_table_lookup (loaded, "b"), -2, 258);
  e = g_hash_table_lookup (loaded, "e");
  g_assert_cmpint (lt_tensor_get_dtype (e), ==, LT_DTYPE_FLOAT64);
  lt_assert_sizes (e, 0, 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/safetensors/round-trip/bytes", test_round_trip_bytes);
  g_test_add ("/safetensors/round-trip/file", TempDir, NULL, temp_dir_set_up,
              test_round_trip_file, temp_dir_tear_down);
  g_test_add_func ("/safetensors/round-trip/empty-table", test_round_trip_empty_table);
  g_test_add_func ("/safetensors/round-trip/metadata", test_metadata_round_trip);

  g_test_add_func ("/safetensors/save/crate-test-vectors", test_save_crate_test_vectors);
  g_test_add_func ("/safetensors/save/crate-metadata-vector", test_save_crate_metadata_vector);
  g_test_add_func ("/safetensors/save/order", test_save_order);
  g_test_add_func ("/safetensors/save/little-endian", test_save_little_endian);
  g_test_add_func ("/safetensors/save/refuses-complex128", test_save_refuses_complex128);
  g_test_add_func ("/safetensors/save/refuses-metadata-name", test_save_refuses_metadata_name);
  g_test_add_func ("/safetensors/save/refuses-header-too-long",
                   test_save_refuses_header_too_long);
  g_test_add ("/safetensors/save/failure-keeps-old-file", TempDir, NULL, temp_dir_set_up,
              test_save_failure_keeps_old_file, temp_dir_tear_down);
  g_test_add ("/safetensors/save/unwritable-directory", TempDir, NULL, temp_dir_set_up,
              test_save_unwritable_directory, temp_dir_tear_down);
  g_test_add_func ("/safetensors/save/device-tensor", test_save_device_tensor);

  g_test_add ("/safetensors/load/misaligned", TempDir, NULL, temp_dir_set_up,
              test_load_misaligned, temp_dir_tear_down);
  g_test_add_func ("/safetensors/load/from-bytes-copies", test_load_from_bytes_copies);
  g_test_add ("/safetensors/load/writes-stay-in-memory", TempDir, NULL, temp_dir_set_up,
              test_load_writes_stay_in_memory, temp_dir_tear_down);
  g_test_add ("/safetensors/load/missing-file", TempDir, NULL, temp_dir_set_up,
              test_load_missing_file, temp_dir_tear_down);
  g_test_add ("/safetensors/load/errors-name-the-file", TempDir, NULL, temp_dir_set_up,
              test_load_errors_name_the_file, temp_dir_tear_down);
  g_test_add_func ("/safetensors/load/hostile", test_load_hostile);
  g_test_add_func ("/safetensors/load/too-many-dims", test_load_too_many_dims);
  g_test_add_func ("/safetensors/load/deep-nesting", test_load_deep_nesting);
  g_test_add_func ("/safetensors/save/refuses-missing-values", test_save_refuses_missing_values);
  g_test_add_func ("/safetensors/load/accepts-what-the-crate-accepts",
                   test_load_accepts_what_the_crate_accepts);

  return g_test_run ();
}
