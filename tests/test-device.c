/* test-device.c: device names, parsing, availability and listing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"

#include "backends/lt-backend.h"

static void
test_parse_and_print (void)
{
  static const struct
  {
    const char *text;
    LtDeviceType device_type;
    guint index;
    const char *printed;
  } cases[] = {
    { "cpu", LT_DEVICE_TYPE_CPU, 0, "cpu" },
    { "cpu:0", LT_DEVICE_TYPE_CPU, 0, "cpu" },
    { "cuda", LT_DEVICE_TYPE_CUDA, 0, "cuda:0" },
    { "cuda:3", LT_DEVICE_TYPE_CUDA, 3, "cuda:3" },
    { "opencl", LT_DEVICE_TYPE_OPENCL, 0, "opencl:0" },
    { "opencl:12", LT_DEVICE_TYPE_OPENCL, 12, "opencl:12" },
    { "cuda:2147483647", LT_DEVICE_TYPE_CUDA, G_MAXINT, "cuda:2147483647" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtDevice) device = lt_device_new_from_string (cases[i].text, &error);
      g_autoptr (LtDevice) again = NULL;
      g_autoptr (LtDevice) copy = NULL;
      g_autofree char *printed = NULL;

      g_assert_no_error (error);
      g_assert_cmpint (lt_device_get_device_type (device), ==, cases[i].device_type);
      g_assert_cmpuint (lt_device_get_index (device), ==, cases[i].index);
      printed = lt_device_to_string (device);
      g_assert_cmpstr (printed, ==, cases[i].printed);

      again = lt_device_new_from_string (printed, &error);
      g_assert_no_error (error);
      g_assert_true (lt_device_equal (device, again));
      copy = lt_device_copy (device);
      g_assert_true (lt_device_equal (copy, device));
    }
}

static void
test_parse_errors (void)
{
  static const char *const bad[] = {
    "", "gpu", "CPU", "cuda:", "cuda:-1", "cuda:+1", "cuda: 1", "cuda:1 ", " cuda", "cuda:0x1",
    "cuda:2147483648", "cuda:99999999999999999999", "cudax", "opencl:1:2", "cpu:a",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtDevice) device = lt_device_new_from_string (bad[i], &error);

      g_assert_null (device);
      g_assert_error (error, LT_ERROR, LT_ERROR_PARSE);
      g_assert_nonnull (strstr (error->message, "is not a device"));
    }
}

static void
test_equal (void)
{
  g_autoptr (LtDevice) a = lt_device_new (LT_DEVICE_TYPE_CUDA, 0);
  g_autoptr (LtDevice) b = lt_device_new (LT_DEVICE_TYPE_CUDA, 1);
  g_autoptr (LtDevice) c = lt_device_new (LT_DEVICE_TYPE_OPENCL, 0);

  g_assert_false (lt_device_equal (a, b));
  g_assert_false (lt_device_equal (a, c));
  g_assert_true (lt_device_equal (a, a));
}

static void
test_cpu_is_available (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtDevice) cpu = lt_device_new (LT_DEVICE_TYPE_CPU, 0);
  g_autoptr (LtDevice) cpu1 = lt_device_new (LT_DEVICE_TYPE_CPU, 1);
  g_autofree char *name = NULL;

  g_assert_true (lt_device_is_available (cpu, &error));
  g_assert_no_error (error);
  name = lt_device_get_name (cpu, &error);
  g_assert_no_error (error);
  g_assert_nonnull (name);
  g_assert_cmpstr (name, !=, "");

  g_assert_false (lt_device_is_available (cpu1, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_assert_cmpstr (error->message, ==,
                   "cpu:1 is not available: the host is the one CPU device, cpu");
}

/* A device whose backend module is nowhere to be found is reported as
 * such, naming the module and where it was looked for. tests/meson.build
 * runs this program a second time with LT_BACKEND_PATH pointing at a
 * directory without modules, and LT_TEST_NO_BACKENDS set. */
static void
test_missing_backend (void)
{
  g_autoptr (LtDevice) cuda = lt_device_new (LT_DEVICE_TYPE_CUDA, 0);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;

  if (g_getenv ("LT_TEST_NO_BACKENDS") == NULL)
    {
      g_test_skip ("the backend modules are on LT_BACKEND_PATH in this run");
      return;
    }

  g_assert_false (lt_device_is_available (cuda, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_assert_true (g_str_has_prefix (error->message,
                                   "cuda:0 is not available: the CUDA backend is not installed "
                                   "(no libtensor-1-cuda.so in "));
  g_clear_error (&error);

  name = lt_device_get_name (cuda, &error);
  g_assert_null (name);
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
}

/* LT_BACKEND_PATH replaces the installed directory: an uninstalled build
 * (tests, meson devenv) must never load an installed module, which may be
 * of another version. */
static void
test_backend_search_path (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("LT_BACKEND_PATH"));
  g_auto (GStrv) given = NULL;
  g_auto (GStrv) installed = NULL;
  g_auto (GStrv) empty = NULL;

  g_setenv ("LT_BACKEND_PATH", "/first/dir" G_SEARCHPATH_SEPARATOR_S G_SEARCHPATH_SEPARATOR_S
            "/second/dir" G_SEARCHPATH_SEPARATOR_S, TRUE);
  given = lt_backend_module_directories ();
  g_assert_cmpuint (g_strv_length (given), ==, 2);
  g_assert_cmpstr (given[0], ==, "/first/dir");
  g_assert_cmpstr (given[1], ==, "/second/dir");

  g_unsetenv ("LT_BACKEND_PATH");
  installed = lt_backend_module_directories ();
  g_assert_cmpuint (g_strv_length (installed), ==, 1);
  g_assert_true (g_path_is_absolute (installed[0]));
  g_assert_true (g_str_has_suffix (installed[0], "/libtensor-1/backends"));

  /* Set but empty: as if unset. */
  g_setenv ("LT_BACKEND_PATH", "", TRUE);
  empty = lt_backend_module_directories ();
  g_assert_cmpstrv (empty, installed);

  if (saved != NULL)
    g_setenv ("LT_BACKEND_PATH", saved, TRUE);
  else
    g_unsetenv ("LT_BACKEND_PATH");
}

static void
test_list (void)
{
  g_auto (GStrv) names = lt_device_list ();

  g_assert_cmpuint (g_strv_length (names), >=, 1);
  g_assert_cmpstr (names[0], ==, "cpu");
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LtDevice) device = lt_device_new_from_string (names[i], &error);
      g_autofree char *name = NULL;

      g_assert_no_error (error);
      name = lt_device_get_name (device, &error);
      g_assert_no_error (error);
      g_assert_nonnull (name);
    }
}

/* Waiting for a device: the CPU always can, a device that is missing
 * says so, and every listed device can. */
static void
test_synchronize (void)
{
  g_autoptr (LtDevice) cpu = lt_device_new (LT_DEVICE_TYPE_CPU, 0);
  g_autoptr (LtDevice) missing = lt_device_new (LT_DEVICE_TYPE_OPENCL, 4096);
  g_auto (GStrv) names = lt_device_list ();
  g_autoptr (GError) error = NULL;

  g_assert_true (lt_device_synchronize (cpu, &error));
  g_assert_no_error (error);
  g_assert_false (lt_device_synchronize (missing, &error));
  g_assert_error (error, LT_ERROR, LT_ERROR_DEVICE);
  g_clear_error (&error);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr (LtDevice) device = lt_device_new_from_string (names[i], &error);

      g_assert_no_error (error);
      g_assert_true (lt_device_synchronize (device, &error));
      g_assert_no_error (error);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/device/parse-and-print", test_parse_and_print);
  g_test_add_func ("/device/parse-errors", test_parse_errors);
  g_test_add_func ("/device/equal", test_equal);
  g_test_add_func ("/device/cpu", test_cpu_is_available);
  g_test_add_func ("/device/missing-backend", test_missing_backend);
  g_test_add_func ("/device/backend-search-path", test_backend_search_path);
  g_test_add_func ("/device/list", test_list);
  g_test_add_func ("/device/synchronize", test_synchronize);

  return g_test_run ();
}
