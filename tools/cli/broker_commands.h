#pragma once

#include <CLI/CLI.hpp>

#include "broker_connection.h"

namespace higgins::cli {

/// Registers the commands that talk to a broker under `app`: ping, create-configuration,
/// delete-configuration, get-topography, upload-module, streams, produce, query, subscribe,
/// create-subscription, subscriptions, subscription and delete-subscription. They connect
/// with `*broker` (the global options, read when the command runs). Each callback sets
/// `*exit_code` (0 on success, 1 with `higgins-cli: <Code>: <message>` on stderr otherwise).
void AddBrokerCommands(CLI::App& app, const BrokerOptions* broker, int* exit_code);

/// Checks an unsigned integer option's text before CLI11 converts it (which would wrap negative
/// numbers and clamp large ones): decimal digits only, below 2^64. A usage error otherwise.
CLI::Validator UnsignedInteger();

/// A stream name must not be empty (a usage error).
CLI::Validator NonEmptyName();

// The larger commands, each in its own file.
void AddStreamsCommand(CLI::App& app, const BrokerOptions* broker, int* exit_code);
void AddProduceCommand(CLI::App& app, const BrokerOptions* broker, int* exit_code);
void AddQueryCommand(CLI::App& app, const BrokerOptions* broker, int* exit_code);
/// subscribe, create-subscription.
void AddSubscribeCommand(CLI::App& app, const BrokerOptions* broker, int* exit_code);
/// subscriptions, subscription ID, delete-subscription ID.
void AddSubscriptionCommands(CLI::App& app, const BrokerOptions* broker, int* exit_code);

}  // namespace higgins::cli
