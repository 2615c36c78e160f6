/* test-npy.c: .npy files
 *
 * Round trips of every dtype and layout, the exact bytes NumPy writes for
 * a small array, files NumPy could write that this library does not write
 * itself (big-endian, Fortran order, version 2.0 and 3.0 headers, Python 2
 * sizes), and files that are wrong in every way a loader must notice.
 * tests/test-npy-numpy.py checks the same against numpy.save/numpy.load.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <errno.h>
#include <glib/gstdio.h>

#include "lt-test-utils.h"

/* This program's file (argv[0]). */
static const char *program_path;

static LtTensor *
literal (const char *text,
         LtDType     dtype)
{
  g_autoptr (GError) error = NULL;
  LtTensor *tensor = lt_tensor_new_from_literal_with_dtype (text, dtype, &error);

  g_assert_no_error (error);
  return tensor;
}

static LtTensor *
round_trip_bytes (LtTensor *tensor)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = lt_tensor_to_npy_bytes (tensor, &error);
  LtTensor *back;

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  back = lt_tensor_new_from_npy_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  return back;
}

/* A .npy file made of @version, @header (padded here to 64 bytes as NumPy
 * pads) and @data. */
static GBytes *
npy_file (guint8      version,
          const char *header,
          const void *data,
          gsize       data_size)
{
  GByteArray *file = g_byte_array_new ();
  gsize length_size = version == 1 ? 2 : 4;
  gsize total = 8 + length_size + strlen (header) + 1;
  gsize padded = (total + 63) / 64 * 64;
  gsize header_length = padded - 8 - length_size;

  g_byte_array_append (file, (const guint8 *) "\x93NUMPY", 6);
  g_byte_array_append (file, (const guint8[]) { version, 0 }, 2);
  for (gsize i = 0; i < length_size; i++)
    g_byte_array_append (file, (const guint8[]) { (header_length >> (8 * i)) & 0xff }, 1);
  g_byte_array_append (file, (const guint8 *) header, (guint) strlen (header));
  while (file->len < padded - 1)
    g_byte_array_append (file, (const guint8 *) " ", 1);
  g_byte_array_append (file, (const guint8 *) "\n", 1);
  g_byte_array_append (file, data, (guint) data_size);
  return g_byte_array_free_to_bytes (file);
}

/* Every dtype NumPy has, in every layout, comes back with its dtype, sizes
 * and values; transposed tensors come back column-major as NumPy's
 * Fortran-order arrays do. */
static void
test_round_trip (void)
{
  static const LtDType dtypes[] = {
    LT_DTYPE_BOOL, LT_DTYPE_UINT8, LT_DTYPE_INT8, LT_DTYPE_INT16, LT_DTYPE_INT32,
    LT_DTYPE_INT64, LT_DTYPE_FLOAT16, LT_DTYPE_FLOAT32, LT_DTYPE_FLOAT64, LT_DTYPE_COMPLEX64,
    LT_DTYPE_COMPLEX128,
  };

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) base = lt_test_arange_shaped (dtypes[d], 4, 6);
      g_autoptr (LtTensor) transposed = lt_tensor_t (base, &error);
      g_autoptr (LtTensor) sliced = lt_tensor_index (base, "[1:, ::-2]", &error);
      g_autoptr (LtTensor) scalar = lt_tensor_index (base, "[2, 3]", &error);
      g_autoptr (LtTensor) empty = lt_tensor_index (base, "[4:]", &error);
      g_autoptr (LtTensor) row = lt_tensor_index (base, "[1]", &error);
      LtTensor *cases[] = { base, transposed, sliced, scalar, empty, row };

      g_assert_no_error (error);
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          g_autoptr (LtTensor) back = round_trip_bytes (cases[c]);
          guint ndim = 0, expected_ndim = 0;
          const gint64 *sizes = lt_tensor_get_sizes (back, &ndim);
          const gint64 *expected_sizes = lt_tensor_get_sizes (cases[c], &expected_ndim);

          g_assert_cmpint (lt_tensor_get_dtype (back), ==, dtypes[d]);
          lt_test_assert_array (G_STRLOC, "sizes", sizes, ndim, expected_sizes, expected_ndim);
          g_assert_true (lt_tensor_equal (back, cases[c]));
        }

      /* The transpose went out in Fortran order, as it lies: it comes
       * back with its strides. */
      {
        g_autoptr (LtTensor) back = round_trip_bytes (transposed);

        lt_assert_strides (back, 1, 6);
      }
    }
}

/* The bytes are those numpy.save() writes (numpy 1.24 adds spaces for
 * growing the shape in place; the layout rules are the same). */
static void
test_exact_bytes (void)
{
  g_autoptr (LtTensor) tensor = literal ("[[1, 2, 3], [4, 5, 6]]", LT_DTYPE_INT16);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = lt_tensor_to_npy_bytes (tensor, &error);
  const guint16 data[] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr (GBytes) expected = npy_file (1, "{'descr': '<i2', 'fortran_order': False, "
                                             "'shape': (2, 3), }", data, sizeof data);

  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));

  /* One dim has a trailing comma, none an empty tuple. */
  {
    g_autoptr (LtTensor) vector = literal ("[7]", LT_DTYPE_UINT8);
    g_autoptr (LtTensor) scalar = lt_tensor_new_scalar_double (2.5);
    g_autoptr (GBytes) vector_bytes = lt_tensor_to_npy_bytes (vector, &error);
    g_autoptr (GBytes) scalar_bytes = lt_tensor_to_npy_bytes (scalar, &error);
    const double value = 2.5;
    g_autoptr (GBytes) want_vector = npy_file (1, "{'descr': '|u1', 'fortran_order': False, "
                                                  "'shape': (1,), }", "\x07", 1);
    g_autoptr (GBytes) want_scalar = npy_file (1, "{'descr': '<f8', 'fortran_order': False, "
                                                  "'shape': (), }", &value, sizeof value);

    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (vector_bytes, want_vector));
    g_assert_true (g_bytes_equal (scalar_bytes, want_scalar));
  }
}

/* What NumPy can write besides what this library writes. */
static void
test_numpy_variants (void)
{
  g_autoptr (GError) error = NULL;

  /* Big-endian float32 and complex64, read into host order. */
  {
    const guint8 data[] = { 0x3f, 0x80, 0, 0, 0xc0, 0x20, 0, 0 };
    g_autoptr (GBytes) file = npy_file (1, "{'descr': '>f4', 'fortran_order': False, "
                                           "'shape': (2,), }", data, sizeof data);
    g_autoptr (GBytes) complex_file = npy_file (1, "{'descr': '>c8', 'fortran_order': False, "
                                                   "'shape': (), }", data, sizeof data);
    g_autoptr (LtTensor) tensor = lt_tensor_new_from_npy_bytes (file, &error);
    g_autoptr (LtTensor) complex = NULL;
    double re = 0, im = 0;

    g_assert_no_error (error);
    lt_assert_values (tensor, 1.0, -2.5);
    complex = lt_tensor_new_from_npy_bytes (complex_file, &error);
    g_assert_no_error (error);
    g_assert_true (lt_tensor_get_complex (complex, NULL, 0, &re, &im, &error));
    g_assert_cmpfloat (re, ==, 1.0);
    g_assert_cmpfloat (im, ==, -2.5);
  }

  /* Fortran order: the data is column-major, the tensor's strides say
   * so. Keys in another order, double quotes, Python 2's "L" sizes and a
   * version 2.0 header are all what some writer wrote. */
  {
    const gint32 data[] = { 1, 4, 2, 5, 3, 6 };
    g_autoptr (GBytes) file = npy_file (2, "{\"shape\": (2L, 3L), \"fortran_order\": True, "
                                           "\"descr\": \"<i4\"}", data, sizeof data);
    g_autoptr (LtTensor) tensor = lt_tensor_new_from_npy_bytes (file, &error);
    g_autoptr (LtTensor) want = literal ("[[1, 2, 3], [4, 5, 6]]", LT_DTYPE_INT32);

    g_assert_no_error (error);
    lt_assert_sizes (tensor, 2, 3);
    lt_assert_strides (tensor, 1, 2);
    g_assert_true (lt_tensor_equal (tensor, want));
  }

  /* Version 3.0 (a UTF-8 header), bool. */
  {
    g_autoptr (GBytes) file = npy_file (3, "{'descr': '|b1', 'fortran_order': False, "
                                           "'shape': (3,), }", "\x01\x00\x01", 3);
    g_autoptr (LtTensor) tensor = lt_tensor_new_from_npy_bytes (file, &error);

    g_assert_no_error (error);
    g_assert_cmpint (lt_tensor_get_dtype (tensor), ==, LT_DTYPE_BOOL);
    lt_assert_values (tensor, 1, 0, 1);
  }
}

/* Files a loader must not trust, each refused with the code and a message
 * that names the problem, and no tensor. */
static void
test_hostile_files (void)
{
  const gint64 eight[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  g_autoptr (GBytes) good = npy_file (1, "{'descr': '<i8', 'fortran_order': False, "
                                         "'shape': (8,), }", eight, sizeof eight);
  gsize good_size;
  const guint8 *good_data = g_bytes_get_data (good, &good_size);
  static const struct
  {
    const char *header;
    gsize data_size;
    int code;
    const char *message;
  } headers[] = {
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (9,), }", 64, LT_ERROR_FILE_FORMAT,
      "needs 72 bytes of data, but the file has 64" },
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (7,), }", 64, LT_ERROR_FILE_FORMAT,
      "needs 56 bytes of data, but the file has 64" },
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 64,
      LT_ERROR_OVERFLOW, "more elements than 64 bits" },
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (99999999999999999999,), }", 64,
      LT_ERROR_FILE_FORMAT, "does not fit in 64 bits" },
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (-8,), }", 64, LT_ERROR_FILE_FORMAT,
      "not a non-negative integer" },
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (8, }", 64, LT_ERROR_FILE_FORMAT,
      "size 1 in 'shape' is not a non-negative integer" },
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (8 1), }", 64, LT_ERROR_FILE_FORMAT,
      "expected “,” between sizes" },
    { "{'descr': '<i8', 'fortran_order': False}", 64, LT_ERROR_FILE_FORMAT, "no 'shape'" },
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (8,), 'extra': 1}", 64,
      LT_ERROR_FILE_FORMAT, "a key “extra”" },
    { "{'descr': '<i8', 'descr': '<i8', 'fortran_order': False, 'shape': (8,)}", 64,
      LT_ERROR_FILE_FORMAT, "the key “descr” twice" },
    { "{'descr': '<i8', 'fortran_order': maybe, 'shape': (8,)}", 64, LT_ERROR_FILE_FORMAT,
      "neither True nor False" },
    { "{'descr': '<u8', 'fortran_order': False, 'shape': (8,), }", 64, LT_ERROR_DTYPE,
      "unsigned integers of 8 bytes ('<u8')" },
    { "{'descr': '|O', 'fortran_order': False, 'shape': (8,), }", 64, LT_ERROR_DTYPE,
      "Python objects" },
    { "{'descr': '<U8', 'fortran_order': False, 'shape': (2,), }", 64, LT_ERROR_DTYPE,
      "the dtype '<U8' has no libtensor counterpart" },
    { "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (8,), }", 64,
      LT_ERROR_DTYPE, "structured dtype" },
    { "{'descr': '<i8', 'fortran_order': False, 'shape': (8,), } junk", 64,
      LT_ERROR_FILE_FORMAT, "goes on after its dict" },
    { "['descr', '<i8']", 64, LT_ERROR_FILE_FORMAT, "expected “{” at the start" },
    { "{'descr': '<i8\\x', 'fortran_order': False, 'shape': (8,), }", 64, LT_ERROR_FILE_FORMAT,
      "an escape" },
    { "{'descr': '<i8", 64, LT_ERROR_FILE_FORMAT, "ends inside a string" },
  };

  for (guint h = 0; h < G_N_ELEMENTS (headers); h++)
    {
      g_autoptr (GBytes) file = npy_file (1, headers[h].header, eight, headers[h].data_size);
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) tensor = lt_tensor_new_from_npy_bytes (file, &error);

      g_assert_null (tensor);
      g_assert_error (error, LT_ERROR, headers[h].code);
      if (strstr (error->message, headers[h].message) == NULL
          || !g_str_has_prefix (error->message, "npy data: "))
        g_error ("header %u: “%s” does not say “%s”", h, error->message, headers[h].message);
    }

  /* Damage to a good file: every truncation, a wrong magic, an unknown
   * version, a header length past the end. */
  for (gsize cut = 0; cut < good_size; cut++)
    {
      g_autoptr (GBytes) file = g_bytes_new (good_data, cut);
      g_autoptr (GError) error = NULL;
      g_autoptr (LtTensor) tensor = lt_tensor_new_from_npy_bytes (file, &error);

      g_assert_null (tensor);
      g_assert_error (error, LT_ERROR, LT_ERROR_FILE_FORMAT);
    }
  {
    static const struct
    {
      gsize at;
      guint8 value;
      const char *message;
    } damage[] = {
      { 0, 0x92, "does not start with \\x93NUMPY" },
      { 6, 4, "version 4.0" },
      { 7, 1, "version 1.1" },
      { 9, 0xff, "said to be 65398 bytes long, but only" },
      { 5, 0xff, "bool element 5 is 255" },  /* data byte 5 of a bool file, below */
    };

    for (guint k = 0; k < G_N_ELEMENTS (damage); k++)
      {
        g_autoptr (GBytes) base = k < 4 ? g_bytes_ref (good)
                                        : npy_file (1, "{'descr': '|b1', 'fortran_order': "
                                                       "False, 'shape': (8,), }",
                                                    "\x01\x00\x01\x00\x01\x00\x01\x00", 8);
        g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (base, NULL),
                                             g_bytes_get_size (base));
        g_autoptr (GBytes) file = NULL;
        g_autoptr (GError) error = NULL;
        g_autoptr (LtTensor) tensor = NULL;

        copy[k < 4 ? damage[k].at : g_bytes_get_size (base) - 8 + damage[k].at] = damage[k].value;
        file = g_bytes_new (copy, g_bytes_get_size (base));
        tensor = lt_tensor_new_from_npy_bytes (file, &error);
        g_assert_null (tensor);
        g_assert_error (error, LT_ERROR, LT_ERROR_FILE_FORMAT);
        if (strstr (error->message, damage[k].message) == NULL)
          g_error ("damage %u: “%s” does not say “%s”", k, error->message, damage[k].message);
      }
  }
}

/* A tensor loaded from bytes has memory of its own: the bytes stay as
 * they were, and two loads do not share elements. */
static void
test_from_bytes_copies (void)
{
  g_autoptr (LtTensor) tensor = lt_test_arange_shaped (LT_DTYPE_INT32, 3, 4);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = lt_tensor_to_npy_bytes (tensor, &error);
  g_autoptr (GBytes) before = NULL;
  g_autoptr (LtTensor) first = NULL;
  g_autoptr (LtTensor) second = NULL;

  g_assert_no_error (error);
  before = g_bytes_new (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  first = lt_tensor_new_from_npy_bytes (bytes, &error);
  second = lt_tensor_new_from_npy_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_fill (first, -1, &error));
  g_assert_no_error (error);
  g_assert_true (lt_tensor_equal (second, tensor));
  g_assert_true (g_bytes_equal (bytes, before));
}

/* bfloat16 has no NumPy dtype: refused, and nothing is written. */
static void
test_bfloat16_refused (void)
{
  g_autoptr (LtTensor) tensor = literal ("[1, 2]", LT_DTYPE_BFLOAT16);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = lt_tensor_to_npy_bytes (tensor, &error);

  g_assert_null (bytes);
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "bfloat16"));
}

/* Files: saved atomically, loaded with messages that name the file, and a
 * failed save leaves the previous file as it was. */
static void
test_files (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-npy-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *bad = NULL;
  g_autoptr (LtTensor) tensor = literal ("[[1.5, 2], [3, 4]]", LT_DTYPE_FLOAT32);
  g_autoptr (LtTensor) loaded = NULL;
  g_autoptr (LtTensor) wider = literal ("[1, 2]", LT_DTYPE_BFLOAT16);
  g_autoptr (GDir) dir = NULL;
  const char *name;
  guint n_files = 0;

  g_assert_no_error (error);
  path = g_build_filename (folder, "t.npy", NULL);
  g_assert_true (lt_tensor_save_npy (tensor, path, &error));
  g_assert_no_error (error);
  loaded = lt_tensor_new_from_npy (path, &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_equal (loaded, tensor));

  /* The tensor holds the file's bytes as they were read: writing to it
   * leaves the file, and rewriting the file in place (as numpy.save()
   * does) leaves the tensor. */
  g_assert_true (lt_tensor_fill (loaded, 7, &error));
  g_assert_no_error (error);
  g_clear_object (&loaded);
  loaded = lt_tensor_new_from_npy (path, &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_equal (loaded, tensor));
  {
    FILE *file = fopen (path, "r+b");

    g_assert_nonnull (file);
    g_assert_cmpint (fseek (file, -8, SEEK_END), ==, 0);
    g_assert_cmpuint (fwrite ("\0\0\0\0\0\0\0\0", 1, 8, file), ==, 8);
    g_assert_cmpint (fclose (file), ==, 0);
    g_assert_true (lt_tensor_equal (loaded, tensor));
    g_assert_true (lt_tensor_save_npy (tensor, path, &error));
    g_assert_no_error (error);
  }

  /* A failed save: the old file is intact, and nothing is left beside it. */
  g_assert_false (lt_tensor_save_npy (wider, path, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DTYPE);
  g_clear_error (&error);
  g_clear_object (&loaded);
  loaded = lt_tensor_new_from_npy (path, &error);
  g_assert_no_error (error);
  g_assert_true (lt_tensor_equal (loaded, tensor));

  missing = g_build_filename (folder, "missing.npy", NULL);
  g_clear_object (&loaded);
  loaded = lt_tensor_new_from_npy (missing, &error);
  g_assert_null (loaded);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, "missing.npy"));
  g_clear_error (&error);

  bad = g_build_filename (folder, "bad.npy", NULL);
  g_assert_true (g_file_set_contents (bad, "\x93NUMPX", 6, &error));
  loaded = lt_tensor_new_from_npy (bad, &error);
  g_assert_null (loaded);
  g_assert_error (error, LT_ERROR, LT_ERROR_FILE_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, bad));
  g_clear_error (&error);

  /* A file this process may not write is read all the same: this test's
   * own program (which Linux refuses to open for writing while it runs). */
  {
    g_autoptr (LtTensor) program = lt_tensor_new_from_npy (program_path, &error);

    g_assert_null (program);
    g_assert_error (error, LT_ERROR, LT_ERROR_FILE_FORMAT);
    g_clear_error (&error);
  }

  /* A folder is no file to load. */
  g_assert_null (lt_tensor_new_from_npy (folder, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_clear_error (&error);

  /* A folder that cannot be written: a GFileError, no file. */
  {
    g_autofree char *nowhere = g_build_filename (folder, "no-such-folder", "t.npy", NULL);

    g_assert_false (lt_tensor_save_npy (tensor, nowhere, &error));
    g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
    g_assert_nonnull (strstr (error->message, "no-such-folder"));
    g_clear_error (&error);
  }

  dir = g_dir_open (folder, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (folder, name, NULL);

      g_assert_true (g_str_equal (name, "t.npy") || g_str_equal (name, "bad.npy"));
      g_assert_cmpint (g_unlink (file), ==, 0);
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, 2);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

/* Device tensors are saved from their values, read back to the host. */
static void
test_device_tensor (void)
{
  g_autoptr (LtDevice) device = lt_device_new (LT_DEVICE_TYPE_OPENCL, 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) host = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 3, 5);
  g_autoptr (LtTensor) on_device = NULL;
  g_autoptr (LtTensor) view = NULL;
  g_autoptr (LtTensor) host_view = NULL;
  g_autoptr (LtTensor) back = NULL;

  if (!lt_device_is_available (device, &error))
    {
      g_test_skip (error->message);
      return;
    }
  on_device = lt_tensor_to_device (host, device, &error);
  g_assert_no_error (error);
  view = lt_tensor_index (on_device, "[::2, 1:]", &error);
  host_view = lt_tensor_index (host, "[::2, 1:]", &error);
  g_assert_no_error (error);
  back = round_trip_bytes (view);
  g_assert_true (lt_tensor_equal (back, host_view));
}

int
main (int   argc,
      char *argv[])
{
  program_path = argv[0];
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/npy/round-trip", test_round_trip);
  g_test_add_func ("/npy/exact-bytes", test_exact_bytes);
  g_test_add_func ("/npy/numpy-variants", test_numpy_variants);
  g_test_add_func ("/npy/hostile-files", test_hostile_files);
  g_test_add_func ("/npy/from-bytes-copies", test_from_bytes_copies);
  g_test_add_func ("/npy/bfloat16-refused", test_bfloat16_refused);
  g_test_add_func ("/npy/files", test_files);
  g_test_add_func ("/npy/device-tensor", test_device_tensor);

  return g_test_run ();
}
