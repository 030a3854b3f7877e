// `higgins-cli subscriptions`, `subscription ID` and `delete-subscription ID`: what the broker
// holds for subscriptions (Client::ListSubscriptions, GetSubscription, DeleteSubscription).
#include <string>

#include "broker_commands.h"
#include "io.h"
#include "report.h"
#include "subscription_text.h"

namespace higgins::cli {
namespace {

struct SubscriptionOptions {
  std::string id;
  std::string stream;
};

Status List(const BrokerOptions& broker, const std::string& stream) {
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(auto subscriptions, client->ListSubscriptions(stream));
  return WriteStdout(SubscriptionsTable(subscriptions));
}

Status Show(const BrokerOptions& broker, const SubscriptionOptions& o) {
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(SubscriptionInfo subscription, client->GetSubscription(o.id, o.stream));
  return WriteStdout(SubscriptionDetails(subscription));
}

Status Delete(const BrokerOptions& broker, const SubscriptionOptions& o) {
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_RETURN_IF_ERROR(client->DeleteSubscription(o.id, o.stream));
  return WriteStdout("deleted subscription " + o.id + "\n");
}

// The ID argument and --stream of `subscription` and `delete-subscription`.
void AddIdOptions(CLI::App* command, SubscriptionOptions* o) {
  command
      ->add_option("ID", o->id,
                   "Subscription id (8-4-4-4-12 hex digits, as subscribe and subscriptions print)")
      ->required()
      ->check(NonEmptyName());
  command->add_option("-s,--stream", o->stream,
                      "The subscription's stream (optional; checked when given)");
}

}  // namespace

void AddSubscriptionCommands(CLI::App& app, const BrokerOptions* broker, int* exit_code) {
  auto stream = std::make_shared<std::string>();
  CLI::App* list = app.add_subcommand(
      "subscriptions", "List subscriptions: start, consumers, unacknowledged and pending records");
  list->add_option("-s,--stream", *stream, "Only this stream's")->check(NonEmptyName());
  list->callback([broker, stream, exit_code] { Report(List(*broker, *stream), exit_code); });

  auto shown = std::make_shared<SubscriptionOptions>();
  CLI::App* show =
      app.add_subcommand("subscription", "Show one subscription with its partitions and consumers");
  AddIdOptions(show, shown.get());
  show->callback([broker, shown, exit_code] { Report(Show(*broker, *shown), exit_code); });

  auto deleted = std::make_shared<SubscriptionOptions>();
  CLI::App* remove = app.add_subcommand(
      "delete-subscription",
      "Delete a subscription: its consumers get no more records and its position is lost");
  AddIdOptions(remove, deleted.get());
  remove->callback([broker, deleted, exit_code] { Report(Delete(*broker, *deleted), exit_code); });
}

}  // namespace higgins::cli
