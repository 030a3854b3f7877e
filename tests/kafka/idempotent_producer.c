/* A librdkafka producer for kafka_idempotence_test.py (docs/kafka.md, "Idempotent producers").
 *
 * Usage: idempotent_producer BOOTSTRAP TOPIC COUNT IDEMPOTENT
 *
 * Produces COUNT JSON records {"id": "k<n % 50>", "n": n, "city": "c"} to TOPIC, keyed by id,
 * with enable.idempotence=IDEMPOTENT (0 or 1) and unbounded retries, then waits up to 120 s
 * for every delivery report. Prints "delivered D failed F" and exits 0 when every record was
 * delivered, 1 otherwise. */
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long delivered = 0;
static long failed = 0;

static void on_delivery(rd_kafka_t *kafka, const rd_kafka_message_t *message, void *opaque) {
  (void)kafka;
  (void)opaque;
  if (message->err) {
    if (failed < 5) fprintf(stderr, "delivery failed: %s\n", rd_kafka_err2str(message->err));
    ++failed;
  } else {
    ++delivered;
  }
}

static void set(rd_kafka_conf_t *conf, const char *name, const char *value) {
  char error[512];
  if (rd_kafka_conf_set(conf, name, value, error, sizeof(error)) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "%s=%s: %s\n", name, value, error);
    exit(2);
  }
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s BOOTSTRAP TOPIC COUNT IDEMPOTENT\n", argv[0]);
    return 2;
  }
  const char *topic = argv[2];
  const long count = strtol(argv[3], NULL, 10);
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", argv[1]);
  set(conf, "enable.idempotence", strcmp(argv[4], "1") == 0 ? "true" : "false");
  set(conf, "acks", "all");
  set(conf, "partitioner", "murmur2_random");
  set(conf, "linger.ms", "2");
  set(conf, "batch.num.messages", "50");
  set(conf, "retries", "1000000");
  set(conf, "retry.backoff.ms", "20");
  set(conf, "reconnect.backoff.ms", "10");
  set(conf, "reconnect.backoff.max.ms", "100");
  set(conf, "message.timeout.ms", "120000");
  rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
  char error[512];
  rd_kafka_t *kafka = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (kafka == NULL) {
    fprintf(stderr, "rd_kafka_new: %s\n", error);
    return 2;
  }
  for (long n = 0; n < count; ++n) {
    char key[32];
    char value[128];
    snprintf(key, sizeof(key), "k%ld", n % 50);
    snprintf(value, sizeof(value), "{\"id\": \"%s\", \"n\": %ld, \"city\": \"c\"}", key, n);
    for (;;) {
      rd_kafka_resp_err_t err = rd_kafka_producev(
          kafka, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_KEY(key, strlen(key)),
          RD_KAFKA_V_VALUE(value, strlen(value)), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
          RD_KAFKA_V_END);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        fprintf(stderr, "produce: %s\n", rd_kafka_err2str(err));
        return 1;
      }
      rd_kafka_poll(kafka, 10);
    }
    rd_kafka_poll(kafka, 0);
  }
  rd_kafka_flush(kafka, 120000);
  char fatal[512];
  if (rd_kafka_fatal_error(kafka, fatal, sizeof(fatal)) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fprintf(stderr, "fatal error: %s\n", fatal);
  }
  printf("delivered %ld failed %ld\n", delivered, failed);
  rd_kafka_destroy(kafka);
  return delivered == count && failed == 0 ? 0 : 1;
}
