/* test-viewer-palette.c: the views' colours stay apart for colour-blind
 * readers
 *
 * Each pair of palette colours is compared, as CIEDE2000 colour
 * differences in CIELAB, for normal vision and for protanopia,
 * deuteranopia and tritanopia simulated with the matrices of Machado,
 * Oliveira and Fernandes (2009, severity 1) on linear sRGB. Ten is a
 * difference seen at a glance. The palette that came before (GNOME's
 * blue, green, orange, purple, red, yellow) had 10.3 for blue against
 * purple under deuteranopia, the pair teachers reported, and a view red
 * like the errors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>
#include <stdio.h>

#include <glib.h>

#include "lt-viewer-palette.h"

#define MIN_DIFFERENCE       10.5
#define MIN_ERROR_DIFFERENCE 15.0

typedef struct
{
  double l, a, b;
} Lab;

static const char *const visions[] = { "normal", "protanopia", "deuteranopia", "tritanopia" };

static const double simulations[][3][3] = {
  { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
  { { 0.152286, 1.052583, -0.204868 },
    { 0.114503, 0.786281, 0.099216 },
    { -0.003882, -0.048116, 1.051998 } },
  { { 0.367322, 0.860646, -0.227968 },
    { 0.280085, 0.672501, 0.047413 },
    { -0.011820, 0.042940, 0.968881 } },
  { { 1.255528, -0.076749, -0.178779 },
    { -0.078411, 0.930809, 0.147602 },
    { 0.004733, 0.691367, 0.303900 } },
};

static double
to_linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
lab_f (double t)
{
  return t > 216.0 / 24389.0 ? cbrt (t) : (24389.0 / 27.0 * t + 16) / 116;
}

/* "#rrggbb" as seen with @vision, in CIELAB (D65). */
static Lab
seen (const char *color,
      guint       vision)
{
  double rgb[3], linear[3], x, y, z;
  guint value;

  g_assert_true (sscanf (color, "#%6x", &value) == 1);
  for (guint i = 0; i < 3; i++)
    rgb[i] = to_linear (((value >> (16 - 8 * i)) & 0xff) / 255.0);
  for (guint i = 0; i < 3; i++)
    {
      const double *row = simulations[vision][i];

      linear[i] = CLAMP (row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2], 0, 1);
    }
  x = 0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2];
  y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  z = 0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2];
  x = lab_f (x / 0.95047);
  y = lab_f (y);
  z = lab_f (z / 1.08883);
  return (Lab) { 116 * y - 16, 500 * (x - y), 200 * (y - z) };
}

static double
degrees (double radians)
{
  double d = radians * 180 / G_PI;

  return d < 0 ? d + 360 : d;
}

static double
radians (double d)
{
  return d * G_PI / 180;
}

/* CIEDE2000 (Sharma, Wu and Dalal's formulation). */
static double
difference (Lab p,
            Lab q)
{
  double c1 = hypot (p.a, p.b), c2 = hypot (q.a, q.b);
  double c_mean = (c1 + c2) / 2;
  double g = 0.5 * (1 - sqrt (pow (c_mean, 7) / (pow (c_mean, 7) + pow (25, 7))));
  double a1 = (1 + g) * p.a, a2 = (1 + g) * q.a;
  double c1p = hypot (a1, p.b), c2p = hypot (a2, q.b);
  double h1 = degrees (atan2 (p.b, a1)), h2 = degrees (atan2 (q.b, a2));
  double dl = q.l - p.l, dc = c2p - c1p, dh = 0, h_mean;
  double l_mean = (p.l + q.l) / 2, c_mean_p = (c1p + c2p) / 2;
  double t, dtheta, rc, sl, sc, sh, rt, dhh;

  if (c1p * c2p != 0)
    {
      dh = h2 - h1;
      if (dh > 180)
        dh -= 360;
      else if (dh < -180)
        dh += 360;
    }
  dhh = 2 * sqrt (c1p * c2p) * sin (radians (dh / 2));
  if (c1p * c2p == 0)
    h_mean = h1 + h2;
  else if (fabs (h1 - h2) <= 180)
    h_mean = (h1 + h2) / 2;
  else
    h_mean = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
  t = 1 - 0.17 * cos (radians (h_mean - 30)) + 0.24 * cos (radians (2 * h_mean))
      + 0.32 * cos (radians (3 * h_mean + 6)) - 0.20 * cos (radians (4 * h_mean - 63));
  dtheta = 30 * exp (-pow ((h_mean - 275) / 25, 2));
  rc = 2 * sqrt (pow (c_mean_p, 7) / (pow (c_mean_p, 7) + pow (25, 7)));
  sl = 1 + 0.015 * pow (l_mean - 50, 2) / sqrt (20 + pow (l_mean - 50, 2));
  sc = 1 + 0.045 * c_mean_p;
  sh = 1 + 0.015 * c_mean_p * t;
  rt = -sin (radians (2 * dtheta)) * rc;
  return sqrt (pow (dl / sl, 2) + pow (dc / sc, 2) + pow (dhh / sh, 2)
               + rt * (dc / sc) * (dhh / sh));
}

/* The formula against published pairs (Sharma et al., table 1). */
static void
test_difference_formula (void)
{
  g_assert_cmpfloat_with_epsilon (difference ((Lab) { 50, 2.6772, -79.7751 },
                                              (Lab) { 50, 0, -82.7485 }), 2.0425, 1e-4);
  g_assert_cmpfloat_with_epsilon (difference ((Lab) { 50, 2.5, 0 },
                                              (Lab) { 73, 25, -18 }), 27.1492, 1e-4);
  g_assert_cmpfloat_with_epsilon (difference ((Lab) { 60.2574, -34.0099, 36.2677 },
                                              (Lab) { 60.4626, -34.1751, 39.4387 }),
                                  1.2644, 1e-4);
}

static void
test_pairs_apart (void)
{
  guint n = lt_viewer_palette_get_n_colors ();

  g_assert_cmpuint (n, >=, 8);
  for (guint v = 0; v < G_N_ELEMENTS (visions); v++)
    {
      double worst = G_MAXDOUBLE;

      for (guint i = 0; i < n; i++)
        for (guint j = i + 1; j < n; j++)
          {
            const char *a = lt_viewer_palette_get_color (i);
            const char *b = lt_viewer_palette_get_color (j);
            double d = difference (seen (a, v), seen (b, v));

            if (d < MIN_DIFFERENCE)
              g_error ("%s and %s differ by only %.1f under %s", a, b, d, visions[v]);
            worst = MIN (worst, d);
          }
      g_test_message ("%s: the closest pair differs by %.1f", visions[v], worst);
    }
}

/* No view looks like an error (libadwaita's error red, light and dark),
 * and each reads on both styles: neither too light for white nor too
 * dark for the dark grey. */
static void
test_apart_from_errors (void)
{
  const char *const errors[] = { "#e01b24", "#ff7b63" };

  for (guint i = 0; i < lt_viewer_palette_get_n_colors (); i++)
    {
      const char *color = lt_viewer_palette_get_color (i);
      Lab lab = seen (color, 0);

      for (guint e = 0; e < G_N_ELEMENTS (errors); e++)
        g_assert_cmpfloat (difference (lab, seen (errors[e], 0)), >=, MIN_ERROR_DIFFERENCE);
      g_assert_cmpfloat (lab.l, >=, 35);
      g_assert_cmpfloat (lab.l, <=, 80);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewer/palette/difference-formula", test_difference_formula);
  g_test_add_func ("/viewer/palette/pairs-apart", test_pairs_apart);
  g_test_add_func ("/viewer/palette/apart-from-errors", test_apart_from_errors);

  return g_test_run ();
}
