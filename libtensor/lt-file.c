/* lt-file.c: whole files for the loaders and savers
 *
 * Files are read by mapping them, privately: tensors over a mapping can be
 * written without touching the file (the pages written are copied), and
 * the mapping lives as long as any tensor over it. Files are written into
 * a temporary file beside the target, which is renamed into place only
 * once everything is written and flushed, so that a failure (a full disk,
 * a crash) leaves whatever file was there before as it was.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "Lt"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "lt-file-private.h"

/* The bytes of @filename (a mapping that the bytes keep alive). */
GBytes *
lt_file_map (const char *filename,
             GError    **error)
{
  GMappedFile *mapped;
  GBytes *bytes;

  g_return_val_if_fail (filename != NULL, NULL);

  /* Writable: a private mapping, so that writes stay in this process. */
  mapped = g_mapped_file_new (filename, TRUE, error);
  if (mapped == NULL)
    return NULL;
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
                       "Could not write “%s”: %s", filename, g_strerror (saved));
          return FALSE;
        }
      data += written;
      size -= (gsize) written;
    }
  return TRUE;
}

/* Writes @parts, one after another, as the new contents of @filename; on
 * failure the file is as it was and nothing is left beside it. */
gboolean
lt_file_write_atomically (const char    *filename,
                          GBytes *const *parts,
                          guint          n_parts,
                          GError       **error)
{
  g_autofree char *temporary = NULL;
  gboolean written = TRUE;
  int fd;

  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (parts != NULL || n_parts == 0, FALSE);

  temporary = g_strdup_printf ("%s.XXXXXX", filename);
  fd = g_mkstemp_full (temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "Could not create a file beside “%s” to write it: %s", filename,
                   g_strerror (saved));
      return FALSE;
    }

  for (guint i = 0; i < n_parts && written; i++)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (parts[i], &size);

      written = write_all (fd, data, size, filename, error);
    }
  /* On disk before the rename, or the rename could outlive the data. */
  if (written && fsync (fd) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "Could not write “%s”: %s", filename, g_strerror (saved));
      written = FALSE;
    }
  if (!g_close (fd, written ? error : NULL))
    written = FALSE;
  if (written && g_rename (temporary, filename) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "Could not move the new contents of “%s” into place: %s", filename,
                   g_strerror (saved));
      written = FALSE;
    }
  if (!written)
    g_unlink (temporary);
  return written;
}
