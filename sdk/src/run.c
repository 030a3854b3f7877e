/* The bodies of the `run` export that HG_MAP and HG_REDUCE define (docs/udf-abi.md, "Map" and
 * "Reduce"): read the input(s), call the user's function with a builder of as many rows, and
 * return the framed result or 0. */
#include "error_record.h"

/* A function that returned non-zero without saying why still leaves a message. */
static void* function_failed(const char* kind, int code) {
  char buf[HG_INT_TEXT_SIZE];
  hg_failv("the ", kind, " function returned ", hg_int_text(code, buf),
           " without recording a message (call hg_fail)", NULL);
  return NULL;
}

void* hg_run_map(const void* in, hg_map_fn fn) {
  hg_clear_error();
  hg_batch batch;
  if (hg_batch_read(&batch, in) != 0) return NULL;
  hg_builder out;
  if (hg_builder_init(&out, batch.num_rows) != 0) return NULL;
  int code = fn(&batch, &out);
  if (code != 0) return function_failed("map", code);
  return hg_builder_finish(&out);
}

/* Reads one reduce input, saying which one a failure is about. */
static int read_labelled(hg_batch* batch, const void* framed, const char* label) {
  if (hg_batch_read(batch, framed) == 0) return 0;
  hg__error_prepend(label);
  return HG_ERROR;
}

void* hg_run_reduce(const void* prev, const void* cur, hg_reduce_fn fn) {
  hg_clear_error();
  hg_batch prev_batch, cur_batch;
  if (read_labelled(&prev_batch, prev, "reduce input prev: ") != 0) return NULL;
  if (read_labelled(&cur_batch, cur, "reduce input cur: ") != 0) return NULL;
  if (prev_batch.num_rows != cur_batch.num_rows) {
    char p[HG_INT_TEXT_SIZE], c[HG_INT_TEXT_SIZE];
    hg_failv("reduce inputs differ in length: prev has ", hg_int_text(prev_batch.num_rows, p),
             " rows and cur ", hg_int_text(cur_batch.num_rows, c), NULL);
    return NULL;
  }
  hg_builder out;
  if (hg_builder_init(&out, prev_batch.num_rows) != 0) return NULL;
  int code = fn(&prev_batch, &cur_batch, &out);
  if (code != 0) return function_failed("reduce", code);
  return hg_builder_finish(&out);
}
