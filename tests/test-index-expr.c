/* test-index-expr.c: the index expression parser, tested directly
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lt-test-utils.h"
#include "lt-index-expr.h"

static const LtIndexItem *
item_at (GArray *items,
         guint   i)
{
  return &g_array_index (items, LtIndexItem, i);
}

static void
test_items (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) items = lt_index_expr_parse ("[1:, -2, None, ..., ::-3, 4:7:2]", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 6);

  g_assert_cmpint (item_at (items, 0)->kind, ==, LT_INDEX_ITEM_SLICE);
  g_assert_true (item_at (items, 0)->has_start);
  g_assert_cmpint (item_at (items, 0)->start, ==, 1);
  g_assert_false (item_at (items, 0)->has_stop);
  g_assert_cmpint (item_at (items, 0)->step, ==, 1);

  g_assert_cmpint (item_at (items, 1)->kind, ==, LT_INDEX_ITEM_INTEGER);
  g_assert_cmpint (item_at (items, 1)->index, ==, -2);
  g_assert_cmpuint (item_at (items, 1)->column, ==, 6);

  g_assert_cmpint (item_at (items, 2)->kind, ==, LT_INDEX_ITEM_NONE);
  g_assert_cmpint (item_at (items, 3)->kind, ==, LT_INDEX_ITEM_ELLIPSIS);

  g_assert_cmpint (item_at (items, 4)->kind, ==, LT_INDEX_ITEM_SLICE);
  g_assert_false (item_at (items, 4)->has_start);
  g_assert_false (item_at (items, 4)->has_stop);
  g_assert_cmpint (item_at (items, 4)->step, ==, -3);

  g_assert_cmpint (item_at (items, 5)->start, ==, 4);
  g_assert_cmpint (item_at (items, 5)->stop, ==, 7);
  g_assert_cmpint (item_at (items, 5)->step, ==, 2);
}

static void
test_forms (void)
{
  const char *valid[] = { "", "[]", "0", " [ 0 , ] ", "[:]", "[::]", "[-9223372036854775808]",
                          "[+3]", "1, 2", "[None,None]" };

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) items = lt_index_expr_parse (valid[i], &error);

      g_assert_no_error (error);
      g_assert_nonnull (items);
    }
}

/* Names stand for tensor arguments; None is not one, Nonesuch is. */
static void
test_names (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) items = lt_index_expr_parse ("[idx, 1:, None, _m2, Nonesuch]", &error);
  const LtIndexItem *item;

  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 5);
  item = &g_array_index (items, LtIndexItem, 0);
  g_assert_cmpint (item->kind, ==, LT_INDEX_ITEM_NAME);
  g_assert_cmpuint (item->column, ==, 2);
  g_assert_cmpuint (item->name_length, ==, 3);
  g_assert_cmpint (strncmp (item->name, "idx", 3), ==, 0);
  g_assert_cmpint (g_array_index (items, LtIndexItem, 1).kind, ==, LT_INDEX_ITEM_SLICE);
  g_assert_cmpint (g_array_index (items, LtIndexItem, 2).kind, ==, LT_INDEX_ITEM_NONE);
  item = &g_array_index (items, LtIndexItem, 3);
  g_assert_cmpint (item->kind, ==, LT_INDEX_ITEM_NAME);
  g_assert_cmpint (strncmp (item->name, "_m2", item->name_length), ==, 0);
  item = &g_array_index (items, LtIndexItem, 4);
  g_assert_cmpint (item->kind, ==, LT_INDEX_ITEM_NAME);
  g_assert_cmpuint (item->name_length, ==, 8);
}

static void
test_errors (void)
{
  static const struct
  {
    const char *expression;
    int code;
    const char *column;
  } cases[] = {
    { "[1:, $]", LT_ERROR_PARSE, "column 6" },
    { "[idx idx]", LT_ERROR_PARSE, "column 6" },
    { "[2x]", LT_ERROR_PARSE, "column 3" },
    { "[1", LT_ERROR_PARSE, "column 3" },
    { "[1]]", LT_ERROR_PARSE, "column 4" },
    { "1]", LT_ERROR_PARSE, "column 2" },
    { "[,]", LT_ERROR_PARSE, "column 2" },
    { "[1 2]", LT_ERROR_PARSE, "column 4" },
    { "[..., ...]", LT_ERROR_PARSE, "column 7" },
    { "[::0]", LT_ERROR_INVALID_ARGUMENT, "column 4" },
    { "[None such]", LT_ERROR_PARSE, "column 7" },
    { "[9223372036854775808]", LT_ERROR_PARSE, "column 2" },
    { "[1:2:3:4]", LT_ERROR_PARSE, "column 7" },
    { "[--1]", LT_ERROR_PARSE, "column 2" },
    /* Columns count characters, and a character is quoted whole. */
    { "[点]", LT_ERROR_PARSE, "'点' at column 2" },
    { "[1, 点]", LT_ERROR_PARSE, "column 5" },
    { "[1\xff]", LT_ERROR_PARSE, "byte 0xff at byte offset 2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GArray) items = lt_index_expr_parse (cases[i].expression, &error);

      g_assert_null (items);
      g_assert_error (error, LT_ERROR, cases[i].code);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      if (strstr (error->message, cases[i].column) == NULL)
        g_error ("'%s': message '%s' does not name %s", cases[i].expression, error->message,
                 cases[i].column);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/index-expr/items", test_items);
  g_test_add_func ("/index-expr/forms", test_forms);
  g_test_add_func ("/index-expr/names", test_names);
  g_test_add_func ("/index-expr/errors", test_errors);

  return g_test_run ();
}
