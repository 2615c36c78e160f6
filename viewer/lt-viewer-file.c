/* lt-viewer-file.c: replacing a file without ever leaving half of one
 *
 * Everything Tensor Viewer writes (lessons, PNG and SVG exports) goes
 * through here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "TensorViewer"

#include "lt-viewer-file.h"

/**
 * lt_viewer_file_replace_contents:
 * @file: the file to write
 * @data: (array length=length): the new contents
 * @length: the size of @data
 * @error: return location for a #GError
 *
 * Writes @data to a temporary file beside @file and renames it over @file
 * once all of it is written, so that a failure (a full disk, a crash)
 * leaves any previous file as it was and no temporary file behind.
 *
 * g_file_replace_contents() is not enough: when a write fails part-way it
 * still closes the stream normally, which moves the truncated temporary file
 * over @file, and where it cannot make a temporary file it rewrites @file in
 * place. Local files go through g_file_set_contents_full(), which does
 * neither; others through g_file_replace(), cancelled on any error so that
 * closing it leaves @file alone.
 *
 * Returns: %TRUE on success; %FALSE with @error set (a #GIOErrorEnum)
 */
gboolean
lt_viewer_file_replace_contents (GFile       *file,
                                 const char  *data,
                                 gsize        length,
                                 GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr (GCancellable) cancellable = NULL;
  g_autoptr (GFileOutputStream) stream = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  path = g_file_get_path (file);
  if (path != NULL)
    {
      g_autoptr (GError) file_error = NULL;

      if (g_file_set_contents_full (path, data != NULL ? data : "", (gssize) length,
                                    G_FILE_SET_CONTENTS_CONSISTENT, 0666, &file_error))
        return TRUE;
      /* A GIO error, as for any other GFile. */
      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_file_error (file_error->code),
                           file_error->message);
      return FALSE;
    }

  cancellable = g_cancellable_new ();
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, cancellable,
                           error);
  if (stream == NULL)
    return FALSE;
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (stream), data, length, NULL, cancellable,
                                  error))
    {
      g_cancellable_cancel (cancellable);
      g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, NULL);
      return FALSE;
    }
  return g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, error);
}
