/* test-translation.c: the library's messages come from its own catalogue
 *
 * The library binds its domain, libtensor-1, itself: these tests only set
 * the locale, as an application does. $LIBTENSOR_LOCALEDIR (tests/meson.build)
 * points at the build tree's catalogues. The locale is C.UTF-8, which glibc
 * always has and in which gettext honours LANGUAGE (in "C" it does not).
 *
 * Each check runs in a subprocess with the language set before it starts:
 * gettext reads the environment and keeps what it has translated.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <locale.h>

#include "lt-test-utils.h"

typedef LtTensor *(*FailingCall) (GError **error);

typedef struct
{
  const char  *name;
  FailingCall  call;
  LtError      code;
  const char  *english;
  const char  *chinese;
} Message;

/* The seeds' view() of a transposed tensor: x of sizes (2, 2, 2, 3),
 * x.transpose(1, 0).view(4, 2, 3). */
static LtTensor *
view_transposed (GError **error)
{
  g_autoptr (LtTensor) x = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2, 2, 2, 3);
  g_autoptr (LtTensor) xt = lt_tensor_transpose (x, 1, 0, NULL);

  return lt_tensor_view (xt, I64S (4, 2, 3), 3, error);
}

/* One dim, so the singular of a message g_dngettext() chooses. */
static LtTensor *
index_too_many (GError **error)
{
  g_autoptr (LtTensor) pair = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2);

  return lt_tensor_index (pair, "[0, 1]", error);
}

/* A message that names what it expected with a phrase of its own. */
static LtTensor *
index_unexpected (GError **error)
{
  g_autoptr (LtTensor) pair = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2);

  return lt_tensor_index (pair, "[0 1]", error);
}

/* A phrase marked with N_() where it is passed, translated where the
 * message is made. */
static LtTensor *
index_select_out_of_range (GError **error)
{
  g_autoptr (LtTensor) pair = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2);
  g_autoptr (LtTensor) index = lt_tensor_new_from_literal ("[5]", NULL);

  return lt_tensor_index_select (pair, 0, index, error);
}

/* A phrase made with g_dngettext() and then put into the message. */
static LtTensor *
view_wrong_size (GError **error)
{
  g_autoptr (LtTensor) pair = lt_test_arange_shaped (LT_DTYPE_FLOAT32, 2);

  return lt_tensor_view (pair, I64S (3), 1, error);
}

static const Message messages[] = {
  { "view-transposed", view_transposed, LT_ERROR_NOT_VIEWABLE,
    "view(4, 2, 3): the tensor's sizes (2, 2, 2, 3) and strides (6, 12, 3, 1) cannot be viewed "
    "as (4, 2, 3) without copying, because dims 0 and 1 (strides 6 and 12) are not contiguous "
    "with each other; use reshape() or contiguous().view()",
    "view(4, 2, 3)：张量的尺寸 (2, 2, 2, 3) 和步长 (6, 12, 3, 1) 无法在不复制的情况下视为 "
    "(4, 2, 3)，因为维度 0 和 1（步长 6 和 12）彼此不连续；请使用 reshape() 或 "
    "contiguous().view()" },
  { "index-too-many", index_too_many, LT_ERROR_INDEX_OUT_OF_RANGE,
    "index expression '[0, 1]' has 2 indices, too many for a tensor with 1 dim",
    "索引表达式 '[0, 1]' 有 2 个索引，对一个有 1 个维度的张量来说太多了" },
  { "index-unexpected", index_unexpected, LT_ERROR_PARSE,
    "index expression '[0 1]': unexpected '1' at column 4; expected ',' or the end of the index",
    "索引表达式 '[0 1]'：意外的 '1'，位于第 4 列；此处应为',' 或索引的结尾" },
  { "index-select-out-of-range", index_select_out_of_range, LT_ERROR_INDEX_OUT_OF_RANGE,
    "index_select(): index 5 is out of range for the dim indexed (expected 0 to 1)",
    "index_select()：索引 5 超出范围（被索引的维度，应为 0 到 1）" },
  { "view-wrong-size", view_wrong_size, LT_ERROR_SHAPE_MISMATCH,
    "view(): shape (3,) does not fit a tensor of 2 elements; the sizes must multiply to 2",
    "view()：形状 (3,) 不适用于有 2 个元素的张量；各尺寸的乘积必须为 2" },
};

/* In the subprocess: the locale from the environment, then the message. */
static void
check_message (const Message *message,
               const char    *expected)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LtTensor) result = NULL;

  g_assert_nonnull (setlocale (LC_ALL, ""));
  result = message->call (&error);
  g_assert_null (result);
  g_assert_error (error, LT_ERROR, (int) message->code);
  g_assert_cmpstr (error->message, ==, expected);
}

/* Runs check_message() in a subprocess with LANGUAGE set to @language
 * (unset for NULL). */
static void
check_in_language (const Message *message,
                   const char    *language,
                   const char    *expected)
{
  if (g_test_subprocess ())
    {
      check_message (message, expected);
      return;
    }
  if (language != NULL)
    g_setenv ("LANGUAGE", language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_chinese (gconstpointer data)
{
  const Message *message = data;

  check_in_language (message, "zh_CN", message->chinese);
}

/* Without LANGUAGE, C.UTF-8 speaks English: the messages are the sources'. */
static void
test_english (gconstpointer data)
{
  const Message *message = data;

  check_in_language (message, NULL, message->english);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    {
      g_autofree char *chinese = g_strdup_printf ("/translation/zh_CN/%s", messages[i].name);
      g_autofree char *english = g_strdup_printf ("/translation/english/%s", messages[i].name);

      g_test_add_data_func (chinese, &messages[i], test_chinese);
      g_test_add_data_func (english, &messages[i], test_english);
    }

  return g_test_run ();
}
