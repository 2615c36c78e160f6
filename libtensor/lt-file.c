/* lt-file.c: whole files for the loaders and savers
 *
 * Files are mapped privately: tensors over a mapping can be written
 * without touching the file (the pages written are copied), and the
 * mapping lives as long as any tensor over it. Files are written into
 * a temporary file beside the target, which is renamed into place only
 * once everything is written (and, when it replaces a file, flushed to
 * disk), so that a failure (a full disk, a crash) leaves whatever file was
 * there before as it was.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lt-file-private.h"
#include "lt-i18n-private.h"

void
lt_file_set_error (GError    **error,
                   LtError     code,
                   const char *source,
                   const char *format,
                   ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* TRANSLATORS: a file's name (or what the bytes are), then the problem */
  g_set_error (error, LT_ERROR, code, _("%s: %s"), source, message);
}

GBytes *
lt_file_swap_bytes (GBytes *bytes,
                    LtDType dtype)
{
  gsize size;
  const guint8 *from = g_bytes_get_data (bytes, &size);
  gsize part = lt_dtype_get_element_size (dtype) / (lt_dtype_is_complex (dtype) ? 2 : 1);
  guint8 *to;

  if (part == 1)
    return g_bytes_ref (bytes);
  to = g_malloc (size);
  for (gsize at = 0; at + part <= size; at += part)
    for (gsize b = 0; b < part; b++)
      to[at + b] = from[at + part - 1 - b];
  return g_bytes_new_take (to, size);
}

/* The bytes of @filename (a mapping that the bytes keep alive). */
GBytes *
lt_file_map (const char *filename,
             GError    **error)
{
  g_autofree char *display_name = NULL;
  GMappedFile *mapped;
  GStatBuf buf;
  GBytes *bytes;
  int fd;

  g_return_val_if_fail (filename != NULL, NULL);

  /* Opened for reading only: read-only files (and running programs) load
   * too. The mapping is writable but private, so writes stay in this
   * process. */
  fd = g_open (filename, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;

      display_name = g_filename_display_name (filename);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not open “%s”: %s"), display_name, g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &buf) == 0 && !S_ISREG (buf.st_mode))
    {
      display_name = g_filename_display_name (filename);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("“%s” is not a regular file"),
                   display_name);
      g_close (fd, NULL);
      return NULL;
    }
  mapped = g_mapped_file_new_from_fd (fd, TRUE, error);
  g_close (fd, NULL);
  if (mapped == NULL)
    {
      display_name = g_filename_display_name (filename);
      /* TRANSLATORS: a file's name, before the reason it could not be read */
      g_prefix_error (error, _("%s: "), display_name);
      return NULL;
    }
  bytes = g_mapped_file_get_bytes (mapped);
  g_mapped_file_unref (mapped);
  return bytes;
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         size,
           const char   *filename,
           GError      **error)
{
  while (size > 0)
    {
      gssize written = write (fd, data, MIN (size, (gsize) G_MAXSSIZE));

      if (written < 0)
        {
          int saved = errno;

          if (saved == EINTR)
            continue;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       _("Could not write “%s”: %s"), filename, g_strerror (saved));
          return FALSE;
        }
      data += written;
      size -= (gsize) written;
    }
  return TRUE;
}

/* Writes @parts, one after another, as the new contents of @filename, with
 * the permissions of the file it replaces; on failure the file is as it
 * was and nothing is left beside it. As with g_file_set_contents(), a
 * symbolic link at @filename is replaced, not followed. */
gboolean
lt_file_write_atomically (const char    *filename,
                          GBytes *const *parts,
                          guint          n_parts,
                          GError       **error)
{
  g_autofree char *temporary = NULL;
  gboolean written = TRUE, replacing;
  GStatBuf old;
  int fd;

  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (parts != NULL || n_parts == 0, FALSE);

  replacing = g_lstat (filename, &old) == 0;
  temporary = g_strdup_printf ("%s.XXXXXX", filename);
  fd = g_mkstemp_full (temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not create a file beside “%s” to write it: %s"), filename,
                   g_strerror (saved));
      return FALSE;
    }

  /* The new file keeps the permissions of the one it replaces. */
  if (replacing && S_ISREG (old.st_mode) && fchmod (fd, old.st_mode & 07777) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not give the new “%s” the old one's permissions: %s"), filename,
                   g_strerror (saved));
      written = FALSE;
    }
  for (guint i = 0; i < n_parts && written; i++)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (parts[i], &size);

      written = write_all (fd, data, size, filename, error);
    }
  /* A file being replaced: the new data reaches the disk before the
   * rename does, or a system crash could leave neither file (GLib's
   * g_file_set_contents() rule; a new file has nothing to lose). */
  if (written && replacing && fsync (fd) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not write “%s”: %s"), filename, g_strerror (saved));
      written = FALSE;
    }
  if (!g_close (fd, written ? error : NULL))
    written = FALSE;
  if (written && g_rename (temporary, filename) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not move the new contents of “%s” into place: %s"), filename,
                   g_strerror (saved));
      written = FALSE;
    }
  if (!written)
    g_unlink (temporary);
  return written;
}
