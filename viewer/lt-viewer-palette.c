/* lt-viewer-palette.c: the colours views get
 *
 * Okabe and Ito's palette for colour-blind readers (blue, orange, bluish
 * green, sky blue, reddish purple), then an ochre and two greys: the pairs
 * stay apart (CIEDE2000 above 10.5) for normal vision and under simulated
 * protanopia, deuteranopia and tritanopia (test-viewer-palette.c checks
 * it), every colour reads on the light and the dark style, and none is
 * near the red of errors. Its vermillion and yellow are left out: one is
 * near that red, the other too pale on white. Views also differ by the
 * pattern of their stripe (lt-viewer-swatch.c), which does not depend on
 * seeing colour at all.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-viewer-palette.h"

static const char *const palette[] = {
  "#0072b2", /* blue */
  "#e69f00", /* orange */
  "#009e73", /* bluish green */
  "#56b4e9", /* sky blue */
  "#cc79a7", /* reddish purple */
  "#997700", /* ochre */
  "#77767b", /* grey */
  "#bab0ac", /* light warm grey */
};

guint
lt_viewer_palette_get_n_colors (void)
{
  return G_N_ELEMENTS (palette);
}

const char *
lt_viewer_palette_get_color (guint index)
{
  return palette[index % G_N_ELEMENTS (palette)];
}
