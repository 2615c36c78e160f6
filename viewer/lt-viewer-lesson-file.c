/* lt-viewer-lesson-file.c: reading and writing lessons as text
 *
 * A lesson file is a GKeyFile, described key by key in
 * data/lessons/README.md. Reading is strict: anything the format does not
 * allow is an error that names the file, the group and the key, and a lesson
 * is only returned when every part of it loaded. GKeyFile itself lets a
 * repeated key or group silently win, so the text is scanned for those
 * first.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include <errno.h>
#include <string.h>

#include "lt-viewer-i18n-private.h"

#include "lt-viewer-file.h"
#include "lt-viewer-format.h"
#include "lt-viewer-lesson-file.h"
#include "lt-viewer-lessons.h"

#define FORMAT_VERSION 1
#define LESSON_GROUP "Lesson"
#define VIEW_GROUP_PREFIX "View "
#define BUILTIN_PATH "/org/libtensor/TensorViewer/lessons/"
#define BUILTIN_SUFFIX ".lesson"
/* Larger files are not lessons (and are not read into memory whole). */
#define MAX_FILE_SIZE (16 * 1024 * 1024)

/* The order the built-in lessons are taught in; others follow by name. */
static const char *const curriculum[] = {
  "points", "transpose-3d", "view-vs-reshape", "flatten", "expand", "unfold", "diagonal",
};

static const char *const contents_names[] = {
  [LT_VIEWER_CONTENTS_ARANGE] = "arange",
  [LT_VIEWER_CONTENTS_ZEROS] = "zeros",
  [LT_VIEWER_CONTENTS_RANDOM] = "random",
  [LT_VIEWER_CONTENTS_LITERAL] = "literal",
};

static const char *const lesson_keys[] = {
  "Version", "Title", "Notes", "DType", "Contents", "Literal", "Shape", "Seed", "CellsPerRow",
  "Zoom", NULL,
};
static const char *const view_keys[] = { "Name", "Color", "Expression", "Expect", "Probe",
                                         NULL };
static const char *const translatable_keys[] = { "Title", "Notes", "Name", NULL };

G_DEFINE_QUARK (lt-viewer-lesson-file-error-quark, lt_viewer_lesson_file_error)

/* A translatable string as it was read, kept on the object it was read into
 * so that saving an unedited lesson writes the original and its
 * translations back, not just the translation shown. */
typedef struct
{
  char *untranslated;
  char *shown;
  GPtrArray *locales;
  GPtrArray *values;
} Localized;

static void
localized_free (gpointer data)
{
  Localized *localized = data;

  g_free (localized->untranslated);
  g_free (localized->shown);
  g_ptr_array_unref (localized->locales);
  g_ptr_array_unref (localized->values);
  g_free (localized);
}

static char *
localized_data_key (const char *key)
{
  return g_strconcat ("lt-viewer-localized-", key, NULL);
}

typedef struct
{
  const char *name;
  GKeyFile *key_file;
  GError **error;
} Loader;

static gboolean fail (Loader     *loader,
                      int         code,
                      const char *group,
                      const char *key,
                      const char *format,
                      ...) G_GNUC_PRINTF (5, 6);

/* "points.lesson: group [View 2], key Expression: ..." */
static gboolean
fail (Loader     *loader,
      int         code,
      const char *group,
      const char *key,
      const char *format,
      ...)
{
  g_autofree char *text = NULL;
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  /* libtensor's literal parser quotes one byte of a character it did not
   * expect, which may be half of one; the message must stay UTF-8. */
  message = g_utf8_make_valid (text, -1);

  if (group != NULL && key != NULL)
    g_set_error (loader->error, LT_VIEWER_LESSON_FILE_ERROR, code,
                 _("%s: group [%s], key %s: %s"), loader->name, group, key, message);
  else if (group != NULL)
    g_set_error (loader->error, LT_VIEWER_LESSON_FILE_ERROR, code, _("%s: group [%s]: %s"),
                 loader->name, group, message);
  else
    g_set_error (loader->error, LT_VIEWER_LESSON_FILE_ERROR, code, "%s: %s", loader->name,
                 message);
  return FALSE;
}

/* A value's escapes are GKeyFile's \s, \n, \t, \r and \\. Others are
 * checked here, not left to GKeyFile: GLib 2.74 sets its error twice for an
 * invalid escape followed by a backslash at the end of the line. */
static gboolean
check_escapes (Loader     *loader,
               const char *group,
               const char *key,
               const char *value,
               const char *end,
               guint       line_number)
{
  for (const char *p = value; p < end; p++)
    {
      if (*p != '\\')
        continue;
      if (p + 1 >= end || (p + 2 == end && p[1] == '\r'))
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, key,
                     _("the value on line %u ends with a backslash; write \\\\ for one"),
                     line_number);
      if (p[1] == '\0' || strchr ("sntr\\", p[1]) == NULL)
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, key,
                     _("the value on line %u has the escape '\\%.*s', which is not one of "
                       "\\n, \\t, \\r, \\s and \\\\"),
                     line_number, (int) (g_utf8_next_char (p + 1) - (p + 1)), p + 1);
      p++;
    }
  return TRUE;
}

/* Finds what GKeyFile would let pass: a group or a key given twice, and
 * escapes it would trip on. Lines are parsed as GKeyFile parses them. */
static gboolean
check_duplicates (Loader     *loader,
                  const char *data,
                  gsize       length)
{
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *group = NULL;
  const char *line = data;
  const char *end = data + length;
  guint line_number = 0;

  while (line < end)
    {
      const char *newline = memchr (line, '\n', (gsize) (end - line));
      const char *line_end = newline != NULL ? newline : end;
      const char *p = line;

      line_number++;
      while (p < line_end && g_ascii_isspace (*p))
        p++;

      if (p < line_end && *p == '[')
        {
          const char *close = memchr (p, ']', (gsize) (line_end - p));

          if (close != NULL)
            {
              g_free (group);
              group = g_strndup (p + 1, (gsize) (close - p - 1));
              if (g_hash_table_contains (groups, group))
                return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, NULL,
                             _("the group appears a second time on line %u; give each group "
                               "once"),
                             line_number);
              g_hash_table_add (groups, g_strdup (group));
            }
        }
      else if (p < line_end && *p != '#' && group != NULL)
        {
          const char *equals = memchr (p, '=', (gsize) (line_end - p));

          if (equals != NULL)
            {
              const char *key_end = equals;
              g_autofree char *key = NULL;
              g_autofree char *entry = NULL;

              while (key_end > p && g_ascii_isspace (key_end[-1]))
                key_end--;
              key = g_strndup (p, (gsize) (key_end - p));
              entry = g_strdup_printf ("%s\x1f%s", group, key);
              if (g_hash_table_contains (keys, entry))
                return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, key,
                             _("the key appears a second time on line %u; give each key once"),
                             line_number);
              g_hash_table_add (keys, g_steal_pointer (&entry));
              if (!check_escapes (loader, group, key, equals + 1, line_end, line_number))
                return FALSE;
            }
        }

      line = line_end + 1;
    }
  return TRUE;
}

/* Splits "Title[zh_CN]" into "Title" and "zh_CN". */
static char *
split_locale (const char  *key,
              const char **out_locale)
{
  const char *open = strchr (key, '[');

  *out_locale = NULL;
  if (open == NULL)
    return g_strdup (key);
  *out_locale = open + 1;
  return g_strndup (key, (gsize) (open - key));
}

/* Every key of @group must be one the format has, translated only where it
 * may be; keys starting with X- are left for others, as in desktop files. */
static gboolean
check_keys (Loader            *loader,
            const char        *group,
            const char *const *allowed)
{
  g_auto (GStrv) keys = g_key_file_get_keys (loader->key_file, group, NULL, NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      const char *locale;
      g_autofree char *bare = split_locale (keys[i], &locale);
      g_autofree char *allowed_text = NULL;

      if (g_str_has_prefix (keys[i], "X-"))
        continue;
      if (!g_strv_contains (allowed, bare))
        {
          allowed_text = g_strjoinv (", ", (GStrv) allowed);
          return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, keys[i],
                       _("unknown key; this group has the keys %s"), allowed_text);
        }
      if (locale != NULL && !g_strv_contains (translatable_keys, bare))
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, keys[i],
                     _("%s cannot be translated; only Title, Notes and Name can"), bare);
    }
  return TRUE;
}

static gboolean
get_string (Loader      *loader,
            const char  *group,
            const char  *key,
            gboolean     required,
            char       **out_value)
{
  g_autoptr (GError) error = NULL;

  *out_value = NULL;
  if (!g_key_file_has_key (loader->key_file, group, key, NULL))
    {
      if (required)
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, key,
                     _("the key is missing"));
      return TRUE;
    }
  /* GKeyFile may return a value and an error about its escapes. */
  *out_value = g_key_file_get_string (loader->key_file, group, key, &error);
  if (error != NULL)
    {
      g_clear_pointer (out_value, g_free);
      return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, key, "%s",
                   error->message);
    }
  return TRUE;
}

/* Reads a translatable key: the translation for the user's languages, and
 * the untranslated value with every translation for saving. */
static gboolean
get_localized (Loader      *loader,
               const char  *group,
               const char  *key,
               gboolean     required,
               GObject     *object,
               char       **out_value)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *untranslated = NULL;
  g_auto (GStrv) keys = NULL;
  Localized *localized;
  gsize key_length = strlen (key);

  *out_value = NULL;
  if (!get_string (loader, group, key, required, &untranslated))
    return FALSE;
  if (untranslated == NULL)
    return TRUE;

  *out_value = g_key_file_get_locale_string (loader->key_file, group, key, NULL, &error);
  if (error != NULL)
    {
      g_clear_pointer (out_value, g_free);
      return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, key, "%s",
                   error->message);
    }

  localized = g_new0 (Localized, 1);
  localized->untranslated = g_steal_pointer (&untranslated);
  localized->shown = g_strdup (*out_value);
  localized->locales = g_ptr_array_new_with_free_func (g_free);
  localized->values = g_ptr_array_new_with_free_func (g_free);

  keys = g_key_file_get_keys (loader->key_file, group, NULL, NULL);
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      const char *k = keys[i];
      gsize length = strlen (k);
      char *value;

      if (length < key_length + 3 || strncmp (k, key, key_length) != 0 || k[key_length] != '['
          || k[length - 1] != ']')
        continue;
      value = g_key_file_get_string (loader->key_file, group, k, &error);
      if (error != NULL)
        {
          g_free (value);
          localized_free (localized);
          g_clear_pointer (out_value, g_free);
          return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, k, "%s",
                       error->message);
        }
      g_ptr_array_add (localized->locales,
                       g_strndup (k + key_length + 1, length - key_length - 2));
      g_ptr_array_add (localized->values, value);
    }

  {
    g_autofree char *data_key = localized_data_key (key);
    g_object_set_data_full (object, data_key, localized, localized_free);
  }
  return TRUE;
}

static gboolean
parse_shape (Loader     *loader,
             const char *text,
             gint64     *shape,
             guint      *n_dims)
{
  g_auto (GStrv) items = g_strsplit (text, ";", -1);
  guint n = g_strv_length (items);

  /* "3;2" and "3;2;" alike, as GKeyFile lists; "" is a 0-dim tensor. */
  if (n > 0 && g_strstrip (items[n - 1])[0] == '\0')
    n--;
  if (n > LT_MAX_DIMS)
    return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "Shape",
                 _("'%s' has more than %d sizes"), text, LT_MAX_DIMS);

  for (guint i = 0; i < n; i++)
    {
      guint64 size;

      if (!g_ascii_string_to_unsigned (g_strstrip (items[i]), 10, 0, G_MAXINT64, &size, NULL))
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "Shape",
                     _("'%s' is not a list of sizes such as 3;2 (sizes are integers, 0 or "
                       "more)"),
                     text);
      shape[i] = (gint64) size;
    }
  *n_dims = n;
  return TRUE;
}

/* CellsPerRow and Zoom: the lesson's geometry, both optional. */
static gboolean
load_geometry (Loader         *loader,
               LtViewerLesson *lesson)
{
  g_autofree char *cells_text = NULL;
  g_autofree char *zoom_text = NULL;

  if (!get_string (loader, LESSON_GROUP, "CellsPerRow", FALSE, &cells_text)
      || !get_string (loader, LESSON_GROUP, "Zoom", FALSE, &zoom_text))
    return FALSE;

  if (cells_text != NULL)
    {
      guint64 cells;

      if (!g_ascii_string_to_unsigned (g_strstrip (cells_text), 10, 1,
                                       LT_VIEWER_LESSON_MAX_CELLS_PER_ROW, &cells, NULL))
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "CellsPerRow",
                     _("'%s' is not a number of cells from 1 to %d"), cells_text,
                     LT_VIEWER_LESSON_MAX_CELLS_PER_ROW);
      lt_viewer_lesson_set_cells_per_row (lesson, (guint) cells);
    }

  if (zoom_text != NULL)
    {
      double zoom;

      /* Written as a decimal number whatever the locale: 1.5, not 1,5. */
      if (!lt_viewer_parse_zoom (g_strstrip (zoom_text), &zoom))
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "Zoom",
                     _("'%s' is not a zoom from %g to %g, such as 1.5"), zoom_text,
                     LT_VIEWER_LESSON_MIN_ZOOM, LT_VIEWER_LESSON_MAX_ZOOM);
      lt_viewer_lesson_set_zoom (lesson, zoom);
    }
  return TRUE;
}

static gboolean
is_color (const char *text)
{
  return strlen (text) == 7 && text[0] == '#'
         && strspn (text + 1, "0123456789abcdefABCDEF") == 6;
}

/* "View 12" gives 12; "View 012", "View x" and "View 0" are not views. */
static gboolean
parse_view_number (const char *group,
                   guint64    *out_number)
{
  const char *digits = group + strlen (VIEW_GROUP_PREFIX);

  return digits[0] >= '1' && digits[0] <= '9'
         && g_ascii_string_to_unsigned (digits, 10, 1, G_MAXUINT32, out_number, NULL);
}

typedef struct
{
  guint64 number;
  const char *group;
} ViewGroup;

static int
compare_view_groups (gconstpointer a,
                     gconstpointer b)
{
  const ViewGroup *x = a, *y = b;

  return x->number < y->number ? -1 : x->number > y->number;
}

static gboolean
load_views (Loader         *loader,
            LtViewerLesson *lesson)
{
  g_auto (GStrv) groups = g_key_file_get_groups (loader->key_file, NULL);
  g_autoptr (GArray) views = g_array_new (FALSE, FALSE, sizeof (ViewGroup));

  for (guint i = 0; groups[i] != NULL; i++)
    {
      ViewGroup view = { 0, groups[i] };

      if (strcmp (groups[i], LESSON_GROUP) == 0)
        continue;
      if (!g_str_has_prefix (groups[i], VIEW_GROUP_PREFIX)
          || !parse_view_number (groups[i], &view.number))
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, groups[i], NULL,
                     _("unknown group; a lesson has [Lesson] and one group per view, "
                       "[View 1], [View 2] and so on"));
      g_array_append_val (views, view);
    }

  if (views->len > LT_VIEWER_MAX_VIEWS)
    return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, NULL, NULL,
                 _("the file has %u views; a lesson has at most %d"), views->len,
                 LT_VIEWER_MAX_VIEWS);

  g_array_sort (views, compare_view_groups);

  for (guint i = 0; i < views->len; i++)
    {
      const char *group = g_array_index (views, ViewGroup, i).group;
      g_autoptr (GObject) holder = g_object_new (G_TYPE_OBJECT, NULL);
      g_autofree char *name = NULL;
      g_autofree char *color = NULL;
      g_autofree char *expression = NULL;
      g_autofree char *expect = NULL;
      g_autofree char *probe = NULL;
      g_autoptr (GError) error = NULL;
      LtViewerView *view;
      g_autofree char *data_key = localized_data_key ("Name");
      Localized *localized;

      if (!check_keys (loader, group, view_keys)
          || !get_string (loader, group, "Expression", TRUE, &expression)
          || !get_localized (loader, group, "Name", FALSE, holder, &name)
          || !get_string (loader, group, "Color", FALSE, &color)
          || !get_string (loader, group, "Expect", FALSE, &expect)
          || !get_string (loader, group, "Probe", FALSE, &probe))
        return FALSE;

      if (color != NULL && !is_color (color))
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, "Color",
                     _("'%s' is not a colour such as #0072b2"), color);
      if (expect != NULL && strcmp (expect, "error") != 0)
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, "Expect",
                     _("'%s' is not something a view can be expected to give; the one "
                       "value is error"), expect);
      if (probe != NULL && (strlen (probe) > 200
                            || strspn (probe, "0123456789-+,() ") != strlen (probe)))
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, "Probe",
                     _("'%s' is not a shape such as 4, 2, 3"), probe);

      if (expect != NULL)
        view = lt_viewer_lesson_add_failing_view (lesson, name, color, expression, &error);
      else
        view = lt_viewer_lesson_add_view (lesson, name, color, expression, &error);
      if (view == NULL)
        return fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, group, "Expression",
                     _("the view %s cannot be made: %s"), name != NULL ? name : expression,
                     error->message);
      if (probe != NULL)
        lt_viewer_view_set_probe (view, probe);

      /* The name's translations move from the placeholder to the view. */
      localized = g_object_steal_data (holder, data_key);
      if (localized != NULL)
        g_object_set_data_full (G_OBJECT (view), data_key, localized, localized_free);
    }
  return TRUE;
}

static LtViewerLesson *
load (Loader     *loader,
      const char *data,
      gsize       length)
{
  g_autoptr (LtViewerLesson) lesson = NULL;
  g_autoptr (GKeyFile) key_file = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *version = NULL;
  g_autofree char *title = NULL;
  g_autofree char *notes = NULL;
  g_autofree char *dtype_name = NULL;
  g_autofree char *contents_name = NULL;
  g_autofree char *literal = NULL;
  g_autofree char *shape_text = NULL;
  g_autofree char *seed_text = NULL;
  gint64 shape[LT_MAX_DIMS];
  guint n_dims = 0;
  guint64 number;
  guint64 seed = 0;
  LtDType dtype = LT_DTYPE_FLOAT32;
  gboolean has_dtype;
  int contents = -1;
  const char *invalid;

  if (length > MAX_FILE_SIZE)
    {
      g_autofree char *size = g_strdup_printf ("%" G_GSIZE_FORMAT, length);

      fail (loader, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, NULL, NULL,
            _("the file has %s bytes, more than a lesson has"), size);
      return NULL;
    }
  /* Some editors start UTF-8 files with a byte order mark. */
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    {
      data += 3;
      length -= 3;
    }
  if (!g_utf8_validate_len (data, length, &invalid))
    {
      fail (loader, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, NULL, NULL,
            _("not a lesson: the file is not UTF-8 text (byte %u)"),
            (guint) (invalid - data) + 1);
      return NULL;
    }
  if (!check_duplicates (loader, data, length))
    return NULL;

  key_file = g_key_file_new ();
  if (!g_key_file_load_from_data (key_file, data, length, G_KEY_FILE_KEEP_TRANSLATIONS, &error))
    {
      fail (loader, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, NULL, NULL,
            _("not a lesson: %s"), error->message);
      return NULL;
    }
  loader->key_file = key_file;

  if (!g_key_file_has_group (key_file, LESSON_GROUP))
    {
      fail (loader, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, NULL, NULL,
            _("not a lesson: the group [%s] is missing"), LESSON_GROUP);
      return NULL;
    }
  /* The version first: a newer file may well have keys this one lacks. */
  if (!get_string (loader, LESSON_GROUP, "Version", TRUE, &version))
    return NULL;
  if (!g_ascii_string_to_unsigned (g_strstrip (version), 10, 0, G_MAXUINT32, &number, NULL))
    {
      fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "Version",
            _("'%s' is not a version number such as %d"), version, FORMAT_VERSION);
      return NULL;
    }
  if (number != FORMAT_VERSION)
    {
      fail (loader, LT_VIEWER_LESSON_FILE_ERROR_VERSION, LESSON_GROUP, "Version",
            number > FORMAT_VERSION
              ? _("version %s is newer than this Tensor Viewer reads (version %d); open the file "
                  "with a newer Tensor Viewer")
              : _("version %s is not a version this Tensor Viewer reads (version %d)"),
            version, FORMAT_VERSION);
      return NULL;
    }

  if (!check_keys (loader, LESSON_GROUP, lesson_keys))
    return NULL;

  lesson = lt_viewer_lesson_new ();
  if (!get_localized (loader, LESSON_GROUP, "Title", TRUE, G_OBJECT (lesson), &title)
      || !get_localized (loader, LESSON_GROUP, "Notes", FALSE, G_OBJECT (lesson), &notes)
      || !get_string (loader, LESSON_GROUP, "DType", FALSE, &dtype_name)
      || !get_string (loader, LESSON_GROUP, "Contents", TRUE, &contents_name))
    return NULL;

  has_dtype = dtype_name != NULL;
  if (has_dtype && !lt_dtype_from_name (g_strstrip (dtype_name), &dtype, &error))
    {
      fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "DType", "%s",
            error->message);
      return NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (contents_names); i++)
    if (g_ascii_strcasecmp (g_strstrip (contents_name), contents_names[i]) == 0)
      contents = (int) i;
  if (contents < 0)
    {
      fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "Contents",
            _("'%s' is not one of literal, arange, zeros and random"), contents_name);
      return NULL;
    }

  if (contents == LT_VIEWER_CONTENTS_LITERAL)
    {
      if (!get_string (loader, LESSON_GROUP, "Literal", TRUE, &literal))
        return NULL;
      /* Without a DType, the literal's own, as torch.tensor() infers it. */
      if (!has_dtype)
        {
          g_autoptr (LtTensor) inferred = lt_tensor_new_from_literal (literal, &error);

          if (inferred == NULL)
            {
              fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "Literal", "%s",
                    error->message);
              return NULL;
            }
          dtype = lt_tensor_get_dtype (inferred);
        }
    }
  else
    {
      if (!get_string (loader, LESSON_GROUP, "Shape", TRUE, &shape_text)
          || !parse_shape (loader, shape_text, shape, &n_dims))
        return NULL;
    }

  if (contents == LT_VIEWER_CONTENTS_RANDOM)
    {
      if (!get_string (loader, LESSON_GROUP, "Seed", FALSE, &seed_text))
        return NULL;
      if (seed_text != NULL
          && !g_ascii_string_to_unsigned (g_strstrip (seed_text), 10, 0, G_MAXUINT64, &seed,
                                          NULL))
        {
          fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "Seed",
                _("'%s' is not a seed: an integer from 0 to 18446744073709551615"), seed_text);
          return NULL;
        }
    }

  if (!lt_viewer_lesson_set_base (lesson, dtype, shape, n_dims, contents, literal, seed, &error))
    {
      if (contents == LT_VIEWER_CONTENTS_LITERAL)
        fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, "Literal", "%s",
              error->message);
      else
        fail (loader, LT_VIEWER_LESSON_FILE_ERROR_INVALID, LESSON_GROUP, NULL,
              _("the base tensor cannot be made: %s"), error->message);
      return NULL;
    }
  lt_viewer_lesson_set_title (lesson, title);
  lt_viewer_lesson_set_notes (lesson, notes);

  if (!load_geometry (loader, lesson) || !load_views (loader, lesson))
    return NULL;

  return g_steal_pointer (&lesson);
}

/**
 * lt_viewer_lesson_load_from_data:
 * @data: (array length=length) (element-type guint8): the file's contents
 * @length: the length of @data, or -1 when it is nul-terminated
 * @name_for_errors: (nullable): what error messages call the file
 * @error: return location for a #GError
 *
 * Reads a lesson. Title, Notes and Name come in the user's language when
 * the file has a translation.
 *
 * Returns: (transfer full): the lesson, or %NULL with @error set in
 *   %LT_VIEWER_LESSON_FILE_ERROR
 */
LtViewerLesson *
lt_viewer_lesson_load_from_data (const char  *data,
                                 gssize       length,
                                 const char  *name_for_errors,
                                 GError     **error)
{
  Loader loader = { name_for_errors != NULL ? name_for_errors : _("lesson"), NULL, error };

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length < 0)
    length = (gssize) strlen (data);
  return load (&loader, data != NULL ? data : "", (gsize) length);
}

/**
 * lt_viewer_lesson_load_from_file:
 * @file: the file
 * @error: return location for a #GError
 *
 * Reads a lesson from a file.
 *
 * Returns: (transfer full): the lesson, or %NULL with @error set
 */
LtViewerLesson *
lt_viewer_lesson_load_from_file (GFile   *file,
                                 GError **error)
{
  g_autoptr (GFileInfo) info = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  gsize length;
  Loader loader = { NULL, NULL, error };

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  name = g_file_get_parse_name (file);
  loader.name = name;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    {
      fail (&loader, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, NULL, NULL,
            _("not a lesson: it is a folder"));
      return NULL;
    }
  if (g_file_info_get_size (info) > MAX_FILE_SIZE)
    {
      g_autofree char *size = g_strdup_printf ("%" G_GINT64_FORMAT,
                                               (gint64) g_file_info_get_size (info));

      fail (&loader, LT_VIEWER_LESSON_FILE_ERROR_NOT_A_LESSON, NULL, NULL,
            _("the file has %s bytes, more than a lesson has"), size);
      return NULL;
    }

  if (!g_file_load_contents (file, NULL, &contents, &length, NULL, error))
    return NULL;
  return load (&loader, contents, length);
}

/* Writes a translatable key: the original and its translations when the
 * value is the one that was read, otherwise the value as it is now. */
static void
save_localized (GKeyFile   *key_file,
                const char *group,
                const char *key,
                GObject    *object,
                const char *value)
{
  g_autofree char *data_key = localized_data_key (key);
  Localized *localized = g_object_get_data (object, data_key);

  if (localized == NULL || g_strcmp0 (localized->shown, value) != 0)
    {
      g_key_file_set_string (key_file, group, key, value);
      return;
    }

  g_key_file_set_string (key_file, group, key, localized->untranslated);
  for (guint i = 0; i < localized->locales->len; i++)
    g_key_file_set_locale_string (key_file, group, key, localized->locales->pdata[i],
                                  localized->values->pdata[i]);
}

/**
 * lt_viewer_lesson_save_to_data:
 * @lesson: a #LtViewerLesson
 * @length: (out) (optional): return location for the length
 *
 * The lesson as the text of a lesson file.
 *
 * Returns: (transfer full): the text
 */
char *
lt_viewer_lesson_save_to_data (LtViewerLesson *lesson,
                               gsize          *length)
{
  g_autoptr (GKeyFile) key_file = g_key_file_new ();
  LtViewerContents contents;
  const char *notes;

  g_return_val_if_fail (LT_VIEWER_IS_LESSON (lesson), NULL);

  g_key_file_set_integer (key_file, LESSON_GROUP, "Version", FORMAT_VERSION);
  save_localized (key_file, LESSON_GROUP, "Title", G_OBJECT (lesson),
                  lt_viewer_lesson_get_title (lesson));
  notes = lt_viewer_lesson_get_notes (lesson);
  if (notes[0] != '\0')
    save_localized (key_file, LESSON_GROUP, "Notes", G_OBJECT (lesson), notes);
  g_key_file_set_string (key_file, LESSON_GROUP, "DType",
                         lt_dtype_get_name (lt_viewer_lesson_get_dtype (lesson)));

  contents = lt_viewer_lesson_get_contents (lesson);
  g_key_file_set_string (key_file, LESSON_GROUP, "Contents", contents_names[contents]);
  if (contents == LT_VIEWER_CONTENTS_LITERAL)
    g_key_file_set_string (key_file, LESSON_GROUP, "Literal",
                           lt_viewer_lesson_get_literal (lesson));
  else
    {
      g_autoptr (GString) text = g_string_new (NULL);
      guint n_dims;
      const gint64 *shape = lt_viewer_lesson_get_shape (lesson, &n_dims);

      for (guint d = 0; d < n_dims; d++)
        g_string_append_printf (text, "%s%" G_GINT64_FORMAT, d > 0 ? ";" : "", shape[d]);
      g_key_file_set_string (key_file, LESSON_GROUP, "Shape", text->str);
    }
  if (contents == LT_VIEWER_CONTENTS_RANDOM)
    g_key_file_set_uint64 (key_file, LESSON_GROUP, "Seed", lt_viewer_lesson_get_seed (lesson));
  if (lt_viewer_lesson_get_cells_per_row (lesson) > 0)
    g_key_file_set_integer (key_file, LESSON_GROUP, "CellsPerRow",
                            (int) lt_viewer_lesson_get_cells_per_row (lesson));
  if (lt_viewer_lesson_get_zoom (lesson) > 0)
    {
      char zoom[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (zoom, sizeof zoom, "%.6g", lt_viewer_lesson_get_zoom (lesson));
      g_key_file_set_string (key_file, LESSON_GROUP, "Zoom", zoom);
    }

  for (guint i = 0; i < lt_viewer_lesson_get_n_views (lesson); i++)
    {
      LtViewerView *view = lt_viewer_lesson_get_view (lesson, i);
      g_autofree char *group = g_strdup_printf (VIEW_GROUP_PREFIX "%u", i + 1);

      save_localized (key_file, group, "Name", G_OBJECT (view), lt_viewer_view_get_name (view));
      g_key_file_set_string (key_file, group, "Color", lt_viewer_view_get_color (view));
      g_key_file_set_string (key_file, group, "Expression", lt_viewer_view_get_expression (view));
      /* A view in error is kept as one: it opens showing its error. */
      if (lt_viewer_view_get_error (view) != NULL)
        g_key_file_set_string (key_file, group, "Expect", "error");
      if (lt_viewer_view_get_probe (view)[0] != '\0')
        g_key_file_set_string (key_file, group, "Probe", lt_viewer_view_get_probe (view));
    }

  g_key_file_set_comment (key_file, NULL, NULL,
                          " A Tensor Viewer lesson; the format is described in "
                          "data/lessons/README.md",
                          NULL);
  return g_key_file_to_data (key_file, length, NULL);
}

/**
 * lt_viewer_lesson_save_to_file:
 * @lesson: a #LtViewerLesson
 * @file: where to save it
 * @error: return location for a #GError
 *
 * Saves the lesson. The text goes to a temporary file that is then renamed
 * over @file, so that a failure leaves any previous file as it was.
 *
 * Returns: %TRUE on success
 */
gboolean
lt_viewer_lesson_save_to_file (LtViewerLesson *lesson,
                               GFile          *file,
                               GError        **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (LT_VIEWER_IS_LESSON (lesson), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  data = lt_viewer_lesson_save_to_data (lesson, &length);
  return lt_viewer_file_replace_contents (file, data, length, error);
}

static int
curriculum_rank (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (curriculum); i++)
    if (strcmp (curriculum[i], name) == 0)
      return (int) i;
  return G_N_ELEMENTS (curriculum);
}

static int
compare_lessons (gconstpointer a,
                 gconstpointer b)
{
  const char *x = *(const char *const *) a;
  const char *y = *(const char *const *) b;
  int rank_x = curriculum_rank (x), rank_y = curriculum_rank (y);

  if (rank_x != rank_y)
    return rank_x - rank_y;
  return strcmp (x, y);
}

/**
 * lt_viewer_lesson_list_builtin:
 *
 * The names of the built-in lessons, in the order they are taught.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names
 */
char **
lt_viewer_lesson_list_builtin (void)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) children = g_resource_enumerate_children (lt_viewer_lessons_get_resource (),
                                                           BUILTIN_PATH,
                                                           G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

  for (guint i = 0; children != NULL && children[i] != NULL; i++)
    if (g_str_has_suffix (children[i], BUILTIN_SUFFIX))
      g_ptr_array_add (names, g_strndup (children[i],
                                         strlen (children[i]) - strlen (BUILTIN_SUFFIX)));
  g_ptr_array_sort (names, compare_lessons);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/**
 * lt_viewer_lesson_load_builtin:
 * @name: a name from lt_viewer_lesson_list_builtin(), such as `points`
 * @error: return location for a #GError
 *
 * Reads a built-in lesson.
 *
 * Returns: (transfer full): the lesson, or %NULL with @error set
 *   (%G_IO_ERROR_NOT_FOUND for an unknown name)
 */
LtViewerLesson *
lt_viewer_lesson_load_builtin (const char  *name,
                               GError     **error)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autofree char *file_name = NULL;
  gsize length;
  const char *data;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file_name = g_strconcat (name, BUILTIN_SUFFIX, NULL);
  path = g_strconcat (BUILTIN_PATH, file_name, NULL);
  if (name[0] != '\0' && strchr (name, '/') == NULL)
    bytes = g_resource_lookup_data (lt_viewer_lessons_get_resource (), path,
                                    G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  if (bytes == NULL)
    {
      g_auto (GStrv) names = lt_viewer_lesson_list_builtin ();
      g_autofree char *known = g_strjoinv (", ", names);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There is no built-in lesson named '%s'; the built-in lessons are %s."),
                   name, known);
      return NULL;
    }

  data = g_bytes_get_data (bytes, &length);
  return lt_viewer_lesson_load_from_data (data, (gssize) length, file_name, error);
}
