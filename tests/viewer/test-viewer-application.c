/* test-viewer-application.c: Tensor Viewer's command line, actions and settings
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <string.h>

#include <glib/gstdio.h>

#include "viewer-test-utils.h"
#include "lt-viewer-application.h"
#include "lt-viewer-lesson-file.h"
#include "lt-viewer-storage-strip.h"
#include "lt-viewer-window.h"

static LtViewerApplication *app;

/* The command line: the built executable, in a process of its own */

typedef struct
{
  int status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
run_viewer_with_env (Run         *run,
                     const char  *cwd,
                     char       **envp,
                     va_list      args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  const char *arg;

  g_ptr_array_add (argv, g_test_build_filename (G_TEST_BUILT, "..", "..", "viewer",
                                                "tensor-viewer", NULL));
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, g_strdup (arg));
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (cwd, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &run->out,
                &run->err, &run->status, &error);
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", run->out, run->err);
}

/* Runs tensor-viewer with the arguments (NULL-terminated) in @cwd, or in
 * this process's directory when NULL. */
static void
run_viewer (Run        *run,
            const char *cwd,
            ...)
{
  va_list args;

  va_start (args, cwd);
  run_viewer_with_env (run, cwd, NULL, args);
  va_end (args);
}

/* The same without a display: no X server, no Wayland. */
static void
run_viewer_headless (Run *run,
                     ...)
{
  g_auto (GStrv) envp = g_get_environ ();
  va_list args;

  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
  envp = g_environ_setenv (envp, "GDK_BACKEND", "wayland", TRUE);
  va_start (args, run);
  run_viewer_with_env (run, NULL, envp, args);
  va_end (args);
}

static gboolean
run_succeeded (Run *run)
{
  return g_spawn_check_wait_status (run->status, NULL);
}

static char *
temp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-viewer-application-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
test_version (void)
{
  g_auto (Run) run = { 0 };
  g_auto (GStrv) words = NULL;

  run_viewer (&run, NULL, "--version", NULL);
  g_assert_true (run_succeeded (&run));
  g_assert_true (g_str_has_suffix (run.out, "\n"));
  words = g_strsplit (g_strstrip (run.out), " ", -1);
  g_assert_cmpuint (g_strv_length (words), ==, 2);
  g_assert_cmpstr (words[0], ==, "tensor-viewer");
  g_assert_true (g_regex_match_simple ("^[0-9]+\\.[0-9]+\\.[0-9]+$", words[1], 0, 0));
  g_assert_cmpstr (run.err, ==, "");
}

static void
test_help (void)
{
  g_auto (Run) run = { 0 };

  run_viewer (&run, NULL, "--help", NULL);
  g_assert_true (run_succeeded (&run));
  g_assert_nonnull (strstr (run.out, "--lesson=NAME"));
  g_assert_nonnull (strstr (run.out, "--open=FILE"));
  g_assert_nonnull (strstr (run.out, "--screenshot=FILE"));
  g_assert_nonnull (strstr (run.out, "--view=NUMBER"));
  g_assert_nonnull (strstr (run.out, "--version"));
  g_assert_nonnull (strstr (run.out, "Built-in lessons: points, transpose-3d, view-vs-reshape, "
                                     "flatten, expand, unfold, diagonal."));
}

static void
check_png (const char *path,
           int         width,
           int         height)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = gdk_texture_new_from_filename (path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, width);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, height);
}

static void
test_screenshot (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "unfold.png", NULL);
  g_auto (Run) run = { 0 };

  run_viewer (&run, NULL, "--lesson", "unfold", "--screenshot", path, NULL);
  g_assert_true (run_succeeded (&run));
  check_png (path, 1280, 800);

  g_unlink (path);
  g_rmdir (dir);
}

static GBytes *
png_pixels (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
  gsize stride, size;
  guchar *data;

  g_assert_no_error (error);
  stride = (gsize) gdk_texture_get_width (texture) * 4;
  size = stride * (gsize) gdk_texture_get_height (texture);
  data = g_malloc (size);
  gdk_texture_download (texture, data, stride);
  return g_bytes_new_take (data, size);
}

static void
test_screenshot_file (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *lesson = g_build_filename (dir, "columns.lesson", NULL);
  g_autofree char *path = g_build_filename (dir, "columns.png", NULL);
  g_autoptr (GError) error = NULL;
  g_auto (Run) run = { 0 };

  g_file_set_contents (lesson,
                       "[Lesson]\nVersion=1\nTitle=Every other column\nContents=arange\n"
                       "Shape=3;4\n\n[View 1]\nExpression=t[:, ::2]\n",
                       -1, &error);
  g_assert_no_error (error);

  /* Names relative to the working directory, as typed in a terminal. */
  run_viewer (&run, dir, "--open", "columns.lesson", "--screenshot", "columns.png", NULL);
  g_assert_true (run_succeeded (&run));
  check_png (path, 1280, 800);

  /* The file named without --open, as a shell or file manager passes it:
   * the same lesson drawn (it was ignored, the last lesson shown). */
  {
    g_auto (Run) positional = { 0 };
    g_autofree char *second = g_build_filename (dir, "positional.png", NULL);
    g_autoptr (GBytes) with_open = png_pixels (path);
    g_autoptr (GBytes) without = NULL;

    run_viewer (&positional, dir, "columns.lesson", "--screenshot", "positional.png", NULL);
    g_assert_true (run_succeeded (&positional));
    without = png_pixels (second);
    g_assert_true (g_bytes_equal (with_open, without));
    g_unlink (second);
  }

  /* One file at a time. */
  {
    g_auto (Run) two = { 0 };
    g_auto (Run) both = { 0 };

    run_viewer (&two, dir, "columns.lesson", "columns.lesson", "--screenshot", "x.png", NULL);
    g_assert_false (run_succeeded (&two));
    g_assert_nonnull (strstr (two.err, "give one lesson file at a time"));
    run_viewer (&both, dir, "--open", "columns.lesson", "columns.lesson", "--screenshot", "x.png",
                NULL);
    g_assert_false (run_succeeded (&both));
    g_assert_nonnull (strstr (both.err, "give one lesson file at a time"));
  }

  g_unlink (path);
  g_unlink (lesson);
  g_rmdir (dir);
}

/* --view picks the view the grid, the order and the badges show. */
static void
test_screenshot_view (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *lesson = g_build_filename (dir, "two.lesson", NULL);
  g_autofree char *first = g_build_filename (dir, "first.png", NULL);
  g_autofree char *second = g_build_filename (dir, "second.png", NULL);
  g_autofree char *default_view = g_build_filename (dir, "default.png", NULL);
  g_autoptr (GBytes) first_pixels = NULL;
  g_autoptr (GBytes) second_pixels = NULL;
  g_autoptr (GBytes) default_pixels = NULL;
  g_autoptr (GError) error = NULL;

  g_file_set_contents (lesson,
                       "[Lesson]\nVersion=1\nTitle=Two views\nContents=arange\nShape=3;4\n\n"
                       "[View 1]\nExpression=t\n\n[View 2]\nExpression=t.t()\n",
                       -1, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < 3; i++)
    {
      g_auto (Run) run = { 0 };
      const char *number = i == 0 ? "1" : "2";
      const char *path = i == 0 ? first : i == 1 ? second : default_view;

      if (i < 2)
        run_viewer (&run, NULL, "--open", lesson, "--view", number, "--screenshot", path, NULL);
      else
        run_viewer (&run, NULL, "--open", lesson, "--screenshot", path, NULL);
      g_assert_true (run_succeeded (&run));
    }

  first_pixels = png_pixels (first);
  second_pixels = png_pixels (second);
  default_pixels = png_pixels (default_view);
  /* The first view is selected when none is named. */
  g_assert_true (g_bytes_equal (first_pixels, default_pixels));
  g_assert_false (g_bytes_equal (first_pixels, second_pixels));

  /* Views count from 1, up to the number of views. */
  for (guint i = 0; i < 2; i++)
    {
      g_auto (Run) run = { 0 };

      run_viewer (&run, NULL, "--open", lesson, "--view", i == 0 ? "0" : "3",
                  "--screenshot", first, NULL);
      g_assert_false (run_succeeded (&run));
      g_assert_nonnull (strstr (run.err, i == 0 ? "there is no view 0: the lesson has 2 views"
                                                : "there is no view 3: the lesson has 2 views"));
    }

  /* A lesson without views has no view 1 (a critical before). */
  {
    g_auto (Run) run = { 0 };

    g_file_set_contents (lesson, "[Lesson]\nVersion=1\nTitle=None\nContents=arange\nShape=3\n",
                         -1, &error);
    g_assert_no_error (error);
    run_viewer (&run, NULL, "--open", lesson, "--view", "1", "--screenshot", first, NULL);
    g_assert_false (run_succeeded (&run));
    g_assert_nonnull (strstr (run.err, "there is no view 1: the lesson has no views"));
    g_assert_null (strstr (run.err, "CRITICAL"));
  }

  /* Without --lesson or --open: a view of the first built-in lesson. */
  {
    g_auto (Run) run = { 0 };

    run_viewer (&run, NULL, "--view", "9", "--screenshot", first, NULL);
    g_assert_false (run_succeeded (&run));
    g_assert_nonnull (strstr (run.err, "there is no view 9"));
  }

  g_unlink (first);
  g_unlink (second);
  g_unlink (default_view);
  g_unlink (lesson);
  g_rmdir (dir);
}

/* A name ending in .svg gets an SVG image, for slides. */
static void
test_screenshot_svg (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "points.svg", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (Run) run = { 0 };

  run_viewer (&run, NULL, "--lesson", "points", "--screenshot", path, NULL);
  g_assert_true (run_succeeded (&run));
  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_false (g_str_has_prefix (contents, "\x89PNG"));

  g_unlink (path);
  g_rmdir (dir);
}

/* --export writes one figure without a display (GTK would fail to open
 * one: GDK_BACKEND names one that is not there). */
static void
test_export (void)
{
  g_autofree char *dir = temp_dir ();
  const char *names[] = { "figure.svg", "figure.png", "figure.pdf" };
  const char *magic[] = { "<?xml", "\x89PNG", "%PDF-" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autofree char *contents = NULL;
      g_auto (Run) run = { 0 };

      run_viewer_headless (&run, "--lesson", "transpose-3d", "--view", "2", "--step", "4",
                           "--cells-per-row", "10", "--zoom", "1.5", "--export", path, NULL);
      g_assert_true (run_succeeded (&run));
      g_assert_cmpstr (run.out, ==, "");
      /* No message (a sanitizer may add its own report). */
      g_assert_null (strstr (run.err, "tensor-viewer"));
      g_assert_null (strstr (run.err, "WARNING"));
      g_assert_null (strstr (run.err, "CRITICAL"));
      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      g_assert_true (g_str_has_prefix (contents, magic[i]));
      if (i == 0)
        {
          /* The options reached the figure: the step's address, 10 cells a
           * row (the 60 cells in 6 rows: cell 10 starts the second). */
          g_assert_nonnull (strstr (contents, "element [0, 1, 1]: 0 + 1*0 + 5*1 + 20*1 = 25"));
          g_assert_nonnull (strstr (contents, "<svg "));
        }
      g_unlink (path);
    }

  /* Without --lesson, the first built-in one; with --open, a file. */
  {
    g_autofree char *path = g_build_filename (dir, "first.svg", NULL);
    g_autofree char *contents = NULL;
    g_auto (Run) run = { 0 };

    run_viewer_headless (&run, "--export", path, NULL);
    g_assert_true (run_succeeded (&run));
    g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "points"));
    g_unlink (path);
  }
  {
    g_autofree char *lesson = g_build_filename (dir, "mine.lesson", NULL);
    g_autofree char *path = g_build_filename (dir, "mine.svg", NULL);
    g_autofree char *contents = NULL;
    g_autoptr (GError) error = NULL;
    g_auto (Run) run = { 0 };

    g_file_set_contents (lesson, "[Lesson]\nVersion=1\nTitle=Mine\nContents=arange\n"
                                 "Shape=4;4\nCellsPerRow=4\n[View 1]\n"
                                 "Expression=t.diagonal()\n", -1, &error);
    g_assert_no_error (error);
    run_viewer_headless (&run, "--open", lesson, "--export", path, NULL);
    g_assert_true (run_succeeded (&run));
    g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "size (4,) · stride (5,) · offset 0"));
    g_unlink (path);
    g_unlink (lesson);
  }

  /* --pytorch-only: the view PyTorch refuses shows PyTorch's error. */
  {
    g_autofree char *lesson = g_build_filename (dir, "reversed.lesson", NULL);
    g_autofree char *path = g_build_filename (dir, "reversed.svg", NULL);
    g_autofree char *plain = NULL;
    g_autofree char *strict = NULL;
    g_autoptr (GError) error = NULL;
    g_auto (Run) run = { 0 };
    g_auto (Run) strict_run = { 0 };

    g_file_set_contents (lesson, "[Lesson]\nVersion=1\nTitle=Reversed\nContents=arange\n"
                                 "Shape=4\n[View 1]\nExpression=t[::-1]\n", -1, &error);
    g_assert_no_error (error);
    run_viewer_headless (&run, "--open", lesson, "--export", path, NULL);
    g_assert_true (run_succeeded (&run));
    g_assert_true (g_file_get_contents (path, &plain, NULL, NULL));
    g_assert_nonnull (strstr (plain, "Not in PyTorch"));
    run_viewer_headless (&strict_run, "--open", lesson, "--pytorch-only", "--export", path, NULL);
    g_assert_true (run_succeeded (&strict_run));
    g_assert_true (g_file_get_contents (path, &strict, NULL, NULL));
    g_assert_nonnull (strstr (strict, "step must be greater than zero"));
    g_assert_null (strstr (strict, "Not in PyTorch"));
    g_unlink (path);
    g_unlink (lesson);
  }
  g_rmdir (dir);
}

/* A locale the system lacks is reported, and $LANGUAGE still works. */
static void
test_missing_locale (void)
{
  g_auto (GStrv) envp = g_get_environ ();
  g_autofree char *binary = g_test_build_filename (G_TEST_BUILT, "..", "..", "viewer",
                                                   "tensor-viewer", NULL);
  const char *argv[] = { binary, "--version", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  envp = g_environ_unsetenv (envp, "LC_ALL");
  envp = g_environ_unsetenv (envp, "LC_MESSAGES");
  envp = g_environ_setenv (envp, "LANG", "xx_YY.UTF-8", TRUE);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_str_has_prefix (out, "tensor-viewer "));
  g_assert_nonnull (strstr (err, "The locale LANG=xx_YY.UTF-8 is not installed"));

  /* An installed one: no word. */
  envp = g_environ_setenv (envp, "LANG", "C.UTF-8", TRUE);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_assert_null (strstr (err, "not installed"));
}

/* Each wrong option: a message that says what is wrong, and no file. */
static void
test_export_errors (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "figure.svg", NULL);
  g_autofree char *jpeg = g_build_filename (dir, "figure.jpg", NULL);
  g_autofree char *unwritable = g_build_filename (dir, "missing", "figure.svg", NULL);
  const struct
  {
    const char *options[4];
    const char *file;
    const char *message;
  } cases[] = {
    { { "--lesson", "nope" }, path, "nope" },
    { { "--view", "9" }, path, "there is no view 9: the lesson has 4 views" },
    { { "--view", "1", "--step", "6" }, path,
      "there is no element 6: the view's elements are 0 to 5" },
    { { "--step", "x" }, path, "there is no element x" },
    { { "--cells-per-row", "0" }, path,
      "--cells-per-row 0 is not a number of cells from 1 to 4096" },
    { { "--zoom", "5" }, path, "--zoom 5 is not a scale from 0.25 to 4, such as 1.5" },
    { { "--zoom", "1,5" }, path, "--zoom 1,5 is not a scale" },
    { { NULL }, jpeg, "end the name with .svg, .png, .pdf or .html" },
    { { NULL }, unwritable, "the figure could not be written to" },
    { { "--screenshot", "shot.png" }, path, "either --export or --screenshot" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Run) run = { 0 };
      const char *const *o = cases[i].options;

      if (o[0] == NULL)
        run_viewer_headless (&run, "--lesson", "points", "--export", cases[i].file, NULL);
      else if (o[2] == NULL)
        run_viewer_headless (&run, "--lesson", "points", o[0], o[1], "--export", cases[i].file,
                             NULL);
      else
        run_viewer_headless (&run, "--lesson", "points", o[0], o[1], o[2], o[3], "--export",
                             cases[i].file, NULL);
      g_assert_false (run_succeeded (&run));
      g_assert_nonnull (strstr (run.err, cases[i].message));
      g_assert_false (g_file_test (cases[i].file, G_FILE_TEST_EXISTS));
    }
  g_rmdir (dir);
}

static void
test_screenshot_errors (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *lesson = g_build_filename (dir, "broken.lesson", NULL);
  g_autofree char *path = g_build_filename (dir, "broken.png", NULL);
  g_autofree char *unwritable = g_build_filename (dir, "missing", "folder", "shot.png", NULL);
  g_autoptr (GError) error = NULL;

  /* An unknown lesson: a message, no image. */
  {
    g_auto (Run) run = { 0 };

    run_viewer (&run, NULL, "--lesson", "nope", "--screenshot", path, NULL);
    g_assert_false (run_succeeded (&run));
    g_assert_nonnull (strstr (run.err, "nope"));
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  }

  /* A malformed lesson file. */
  {
    g_auto (Run) run = { 0 };

    g_file_set_contents (lesson, "[Lesson]\nVersion=1\nTitel=Typo\n", -1, &error);
    g_assert_no_error (error);
    run_viewer (&run, NULL, "--open", lesson, "--screenshot", path, NULL);
    g_assert_false (run_succeeded (&run));
    g_assert_nonnull (strstr (run.err, "broken.lesson"));
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  }

  /* A folder that does not exist. */
  {
    g_auto (Run) run = { 0 };

    run_viewer (&run, NULL, "--lesson", "points", "--screenshot", unwritable, NULL);
    g_assert_false (run_succeeded (&run));
    g_assert_nonnull (strstr (run.err, "shot.png"));
  }

  /* Both a lesson and a file. */
  {
    g_auto (Run) run = { 0 };

    run_viewer (&run, NULL, "--lesson", "points", "--open", lesson, "--screenshot", path, NULL);
    g_assert_false (run_succeeded (&run));
    g_assert_nonnull (strstr (run.err, "--lesson"));
  }

  g_unlink (lesson);
  g_rmdir (dir);
}

/* The application in this process */

static void
destroy_windows (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  while (g_list_model_get_n_items (toplevels) > 0)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, 0);

      gtk_window_destroy (window);
    }
  viewer_test_spin_until_idle ();
}

static GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (toplevel, type))
        return GTK_WINDOW (toplevel);
    }
  return NULL;
}

static void
test_actions (void)
{
  static const struct
  {
    const char *action;
    const char *accels[3];
  } expected[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.shortcuts", { "<Control>question", "F1", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Shift><Control>s", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.add-view", { "<Control>n", NULL } },
    { "win.play-pause", { "<Control>space", NULL } },
    { "win.step-back", { "<Alt>Left", NULL } },
    { "win.step-forward", { "<Alt>Right", NULL } },
  };
  GActionGroup *group = G_ACTION_GROUP (app);

  g_assert_true (g_action_group_has_action (group, "quit"));
  g_assert_true (g_action_group_has_action (group, "about"));
  g_assert_true (g_action_group_has_action (group, "shortcuts"));
  g_assert_true (g_action_group_has_action (group, "open-lesson"));
  g_assert_true (g_variant_type_equal (g_action_group_get_action_parameter_type (group,
                                                                                "open-lesson"),
                                       G_VARIANT_TYPE_STRING));

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                    expected[i].action);

      g_test_message ("%s", expected[i].action);
      g_assert_true (g_strv_equal ((const char * const *) accels, expected[i].accels));
    }

  /* One action per accel: the built-in help overlay action gives its
   * Control+? to app.shortcuts. */
  {
    g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                  "win.show-help-overlay");

    g_assert_cmpuint (g_strv_length (accels), ==, 0);
  }
}

static void
test_open_lesson (void)
{
  g_autofree char *last = NULL;
  GtkWindow *window;
  LtViewerWindow *viewer;

  g_action_group_activate_action (G_ACTION_GROUP (app), "open-lesson",
                                  g_variant_new_string ("unfold"));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_true (LT_VIEWER_IS_WINDOW (window));
  viewer = LT_VIEWER_WINDOW (window);
  g_assert_cmpstr (lt_viewer_window_get_builtin (viewer), ==, "unfold");

  /* The same window shows the next one. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-lesson",
                                  g_variant_new_string ("diagonal"));
  g_assert_true (gtk_application_get_active_window (GTK_APPLICATION (app)) == window);
  g_assert_cmpstr (lt_viewer_window_get_builtin (viewer), ==, "diagonal");

  /* An unknown one leaves it. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-lesson",
                                  g_variant_new_string ("nope"));
  g_assert_cmpstr (lt_viewer_window_get_builtin (viewer), ==, "diagonal");

  /* Remembered for the next start. */
  last = g_settings_get_string (lt_viewer_application_get_settings (app), "last-lesson");
  g_assert_cmpstr (last, ==, "diagonal");

  destroy_windows ();
}

static void
test_about_and_shortcuts (void)
{
  GtkWindow *about;
  GtkWindow *shortcuts;

  g_action_group_activate_action (G_ACTION_GROUP (app), "open-lesson",
                                  g_variant_new_string ("points"));

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  about = find_toplevel (ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_application_name (ADW_ABOUT_WINDOW (about)), ==,
                   "Tensor Viewer");
  g_assert_cmpstr (adw_about_window_get_application_icon (ADW_ABOUT_WINDOW (about)), ==,
                   "org.libtensor.TensorViewer");
  gtk_window_destroy (about);

  g_action_group_activate_action (G_ACTION_GROUP (app), "shortcuts", NULL);
  shortcuts = find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);
  g_assert_nonnull (shortcuts);

  destroy_windows ();
}

static gboolean
has_label (GtkWidget  *widget,
           const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_label (child, text))
      return TRUE;
  return FALSE;
}

/* The report of a missing locale shows in the first window, once. */
static void
test_locale_report_toast (void)
{
  const char *report = "The locale LANG=xx_YY.UTF-8 is not installed on this system";
  GtkWindow *window;

  lt_viewer_application_set_locale_report (app, report);
  g_application_activate (G_APPLICATION (app));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  viewer_test_wait_for_frame (GTK_WIDGET (window));
  g_assert_true (has_label (GTK_WIDGET (window), report));
  destroy_windows ();

  g_application_activate (G_APPLICATION (app));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  viewer_test_wait_for_frame (GTK_WIDGET (window));
  g_assert_false (has_label (GTK_WIDGET (window), report));
  destroy_windows ();
}

static void
test_restore (void)
{
  GSettings *settings = lt_viewer_application_get_settings (app);
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "mine.lesson", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr (GError) error = NULL;
  GtkWindow *window;
  LtViewerStorageStrip *strip;

  g_assert_nonnull (settings);

  /* A built-in lesson, and the wrap width. */
  g_settings_set_string (settings, "last-lesson", "flatten");
  g_settings_set_uint (settings, "wrap-width", 5);
  g_application_activate (G_APPLICATION (app));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_cmpstr (lt_viewer_window_get_builtin (LT_VIEWER_WINDOW (window)), ==, "flatten");
  strip = LT_VIEWER_STORAGE_STRIP (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                  LT_VIEWER_TYPE_WINDOW,
                                                                  "storage_strip"));
  g_assert_cmpuint (lt_viewer_storage_strip_get_wrap_width (strip), ==, 5);
  lt_viewer_storage_strip_set_wrap_width (strip, 7);
  g_assert_cmpuint (g_settings_get_uint (settings, "wrap-width"), ==, 7);
  destroy_windows ();

  /* A file. */
  g_file_set_contents (path, "[Lesson]\nVersion=1\nTitle=Mine\nContents=zeros\nShape=2;2\n", -1,
                       &error);
  g_assert_no_error (error);
  g_settings_set_string (settings, "last-lesson", uri);
  g_application_activate (G_APPLICATION (app));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_true (g_file_equal (lt_viewer_window_get_file (LT_VIEWER_WINDOW (window)), file));
  g_assert_cmpstr (lt_viewer_lesson_get_title (lt_viewer_window_get_lesson (LT_VIEWER_WINDOW (window))),
                   ==, "Mine");
  destroy_windows ();

  /* A file that is gone: the first built-in lesson. */
  g_unlink (path);
  g_application_activate (G_APPLICATION (app));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_cmpstr (lt_viewer_window_get_builtin (LT_VIEWER_WINDOW (window)), ==, "points");
  destroy_windows ();

  /* The window size, kept when it is closed. */
  g_settings_set_int (settings, "window-width", 1000);
  g_settings_set_int (settings, "window-height", 700);
  g_application_activate (G_APPLICATION (app));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  {
    int width, height;

    gtk_window_get_default_size (window, &width, &height);
    g_assert_cmpint (width, ==, 1000);
    g_assert_cmpint (height, ==, 700);
    gtk_window_set_default_size (window, 1100, 750);
  }
  gtk_window_close (window);
  viewer_test_spin_until_idle ();
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1100);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 750);
  destroy_windows ();

  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GError) error = NULL;
  int status;

  /* Under xvfb-run there is no session bus for the accessibility bridge;
   * the spawned viewers inherit this. */
  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_unsetenv ("LANGUAGE");
  g_test_init (&argc, &argv, NULL);
  g_free (lt_viewer_application_init_i18n ());

  app = lt_viewer_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_test_add_func ("/viewer/application/command-line/version", test_version);
  g_test_add_func ("/viewer/application/command-line/help", test_help);
  g_test_add_func ("/viewer/application/command-line/screenshot", test_screenshot);
  g_test_add_func ("/viewer/application/command-line/screenshot-file", test_screenshot_file);
  g_test_add_func ("/viewer/application/command-line/screenshot-errors", test_screenshot_errors);
  g_test_add_func ("/viewer/application/command-line/screenshot-view", test_screenshot_view);
  g_test_add_func ("/viewer/application/command-line/screenshot-svg", test_screenshot_svg);
  g_test_add_func ("/viewer/application/command-line/export", test_export);
  g_test_add_func ("/viewer/application/command-line/export-errors", test_export_errors);
  g_test_add_func ("/viewer/application/command-line/missing-locale", test_missing_locale);
  g_test_add_func ("/viewer/application/locale-report-toast", test_locale_report_toast);
  g_test_add_func ("/viewer/application/actions/accels", test_actions);
  g_test_add_func ("/viewer/application/actions/open-lesson", test_open_lesson);
  g_test_add_func ("/viewer/application/actions/about-and-shortcuts", test_about_and_shortcuts);
  g_test_add_func ("/viewer/application/settings/restore", test_restore);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
