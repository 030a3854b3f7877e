// The HTTP API's routing, parameters, bodies and errors against a fake broker API (no sockets).
#include "server/http/http_api.h"

#include <gtest/gtest.h>

#include <optional>

#include "auth/jwt_verifier.h"
#include "server/http/json_replies.h"
#include "server/http/request_target.h"
#include "server/http/ws_grant.h"
#include "server/testing/fake_broker_api.h"
#include "web/console_assets.h"

namespace higgins::server::http {
namespace {

using beast_http::field;
using beast_http::status;
using beast_http::verb;

class HttpApiTest : public ::testing::Test {
 protected:
  Response Call(verb method, std::string target, std::string body = "",
                std::string content_type = "") {
    Request request(method, target, 11);
    if (!content_type.empty()) request.set(field::content_type, content_type);
    request.body() = std::move(body);
    request.prepare_payload();
    std::optional<Response> answer;
    api_.Handle(std::move(request), [&answer](Response r) { answer = std::move(r); });
    EXPECT_TRUE(answer.has_value()) << "no synchronous answer to " << target;
    return answer ? *std::move(answer) : Response();
  }

  testing::FakeBrokerApi broker_;
  HttpApi api_{&broker_, {}};
};

TEST(RequestTargetTest, SplitsAndDecodesSegmentsAndParameters) {
  auto target = ParseTarget("/v1/streams/a%2Fb/records?key=New+York&offset=3&latest&x=%C3%A9");
  ASSERT_TRUE(target.ok()) << target.status().ToString();
  EXPECT_EQ(target->segments, (std::vector<std::string>{"v1", "streams", "a/b", "records"}));
  EXPECT_EQ(target->Param("key"), "New York");
  EXPECT_EQ(target->Param("offset"), "3");
  EXPECT_EQ(target->Param("latest"), "");
  EXPECT_EQ(target->Param("x"), "\xC3\xA9");
  EXPECT_EQ(target->Param("missing"), std::nullopt);
}

TEST(RequestTargetTest, RefusesBadEscapesNulAndInvalidUtf8) {
  EXPECT_FALSE(ParseTarget("/v1/streams/%zz").ok());
  EXPECT_FALSE(ParseTarget("/v1/streams/%4").ok());
  EXPECT_FALSE(ParseTarget("/v1/streams/a%00b").ok());
  EXPECT_FALSE(ParseTarget("/v1/streams?key=%FF").ok());
  EXPECT_FALSE(ParseTarget("v1/streams").ok());
}

TEST(JsonRepliesTest, ErrorsCarryTheCodeNameAndEscapedMessageLines) {
  EXPECT_EQ(ErrorJson(Status::NotFound("stream 'x\"y'")),
            R"({"error":{"code":"not_found","message":"stream 'x\"y'"}})");
  EXPECT_EQ(ErrorJson(Status::InvalidArgument("a\nb")),
            R"({"error":{"code":"invalid_argument","message":"a\nb"}})");
  EXPECT_EQ(ErrorCodeName(StatusCode::kIOError), "io_error");
}

TEST(JsonRepliesTest, ProduceAnswersEachRowsPartitionKeyAndOffset) {
  stream::ProduceResult result;
  result.partitions = {"JFK", "SFO"};
  result.partition_indexes = {0, 1, 0};
  result.offsets = {7, 0, 8};
  result.timestamp_ms = 1'765'094'400'123;  // 2025-12-07T08:00:00.123Z
  EXPECT_EQ(ProduceJson(result),
            R"({"commit_time":"2025-12-07T08:00:00.123Z","records":[)"
            R"({"partition_key":"JFK","offset":7},{"partition_key":"SFO","offset":0},)"
            R"({"partition_key":"JFK","offset":8}]})");
}

TEST_F(HttpApiTest, ProduceSendsTheBodyInTheFormatOfItsContentType) {
  stream::ProduceResult result;
  result.partitions = {"k"};
  result.partition_indexes = {0};
  result.offsets = {4};
  broker_.produce_result = result;
  Response r = Call(verb::post, "/v1/streams/s/records", R"({"k":"k"})", "application/json");
  EXPECT_EQ(r.result(), status::ok);
  EXPECT_NE(r.body().find(R"("records":[{"partition_key":"k","offset":4}])"), std::string::npos)
      << r.body();
  r = Call(verb::post, "/v1/streams/s/records", "{}\n{}\n", "application/x-ndjson; charset=utf-8");
  EXPECT_EQ(r.result(), status::ok);
  r = Call(verb::post, "/v1/streams/s/records", "ARROW1", "application/vnd.apache.arrow.stream");
  r = Call(verb::post, "/v1/streams/s/records", "{}");  // no Content-Type: detected
  ASSERT_EQ(broker_.produces.size(), 4u);
  EXPECT_EQ(broker_.produces[0].stream, "s");
  EXPECT_EQ(broker_.produces[0].payload, R"({"k":"k"})");
  EXPECT_EQ(broker_.produces[0].format, stream::PayloadFormat::kJson);
  EXPECT_EQ(broker_.produces[1].format, stream::PayloadFormat::kJson);
  EXPECT_EQ(broker_.produces[2].format, stream::PayloadFormat::kArrowIpc);
  EXPECT_EQ(broker_.produces[3].format, stream::PayloadFormat::kAuto);
}

TEST_F(HttpApiTest, ProduceRefusesOtherMediaTypesAndEmptyBodies) {
  Response r = Call(verb::post, "/v1/streams/s/records", "a,b", "text/csv");
  EXPECT_EQ(r.result(), status::unsupported_media_type);
  EXPECT_NE(r.body().find("\"code\":\"unsupported_media_type\""), std::string::npos);
  r = Call(verb::post, "/v1/streams/s/records", "", "application/json");
  EXPECT_EQ(r.result(), status::bad_request);
  EXPECT_TRUE(broker_.produces.empty());
}

TEST_F(HttpApiTest, BrokerErrorsGetTheirStatus) {
  broker_.produce_result = Status::NotFound("stream 'nope'");
  Response r = Call(verb::post, "/v1/streams/nope/records", "{}", "application/json");
  EXPECT_EQ(r.result(), status::not_found);
  EXPECT_EQ(r.body(), R"({"error":{"code":"not_found","message":"stream 'nope'"}})");
  EXPECT_EQ(r[field::content_type], "application/json");
  broker_.produce_result = Status::InvalidArgument("row 0: field 'x' is not an int32");
  EXPECT_EQ(Call(verb::post, "/v1/streams/s/records", "{}", "application/json").result(),
            status::bad_request);
  broker_.produce_result = Status::ResourceExhausted("too many");
  EXPECT_EQ(Call(verb::post, "/v1/streams/s/records", "{}", "application/json").result(),
            status::too_many_requests);
  broker_.produce_result = Status::Corruption("truncated stream");  // the body's
  r = Call(verb::post, "/v1/streams/s/records", "\xff\xff\xff\xff",
           "application/vnd.apache.arrow.stream");
  EXPECT_EQ(r.result(), status::bad_request);
  EXPECT_EQ(r.body(), R"({"error":{"code":"corruption","message":"truncated stream"}})");
  broker_.produce_result = Status::IOError("disk");
  EXPECT_EQ(Call(verb::post, "/v1/streams/s/records", "{}", "application/json").result(),
            status::internal_server_error);
}

TEST_F(HttpApiTest, QueryParametersBecomeTypedQueries) {
  broker_.query_answer = Status::NotFound("no record");
  Call(verb::get, "/v1/streams/s/records?key=a&offset=5");
  Call(verb::get, "/v1/streams/s/records?key=a&latest");
  Call(verb::get, "/v1/streams/s/records?key=a&offset=latest");
  Call(verb::get, "/v1/streams/s/records?key=a&from=2&to=9");
  Call(verb::get, "/v1/streams/s/records?key=a&time=1000");
  Call(verb::get, "/v1/streams/s/records?key=a&time=1970-01-01T00:00:02Z");
  ASSERT_EQ(broker_.queries.size(), 6u);
  using Kind = broker::QueryRequest::Kind;
  EXPECT_EQ(broker_.queries[0].kind, Kind::kOffset);
  EXPECT_EQ(broker_.queries[0].offset, Offset{5});
  EXPECT_EQ(broker_.queries[0].key, "a");
  EXPECT_EQ(broker_.queries[0].stream, "s");
  EXPECT_EQ(broker_.queries[1].kind, Kind::kLatest);
  EXPECT_EQ(broker_.queries[2].kind, Kind::kLatest);
  EXPECT_EQ(broker_.queries[3].kind, Kind::kRange);
  EXPECT_EQ(broker_.queries[3].offset, Offset{2});
  EXPECT_EQ(broker_.queries[3].end, Offset{9});
  EXPECT_EQ(broker_.queries[4].kind, Kind::kTimestamp);
  EXPECT_EQ(broker_.queries[4].timestamp_ms, 1000);
  EXPECT_EQ(broker_.queries[5].timestamp_ms, 2000);
}

TEST_F(HttpApiTest, BadQueryParametersAre400WithoutAQuery) {
  for (const char* target :
       {"/v1/streams/s/records", "/v1/streams/s/records?key=a&offset=-1",
        "/v1/streams/s/records?key=a&offset=1x", "/v1/streams/s/records?key=a&offset=1&latest",
        "/v1/streams/s/records?key=a&to=3", "/v1/streams/s/records?key=a&from=5&to=3",
        "/v1/streams/s/records?key=a&time=yesterday"}) {
    Response r = Call(verb::get, target);
    EXPECT_EQ(r.result(), status::bad_request) << target;
    EXPECT_NE(r.body().find("\"code\":\"invalid_argument\""), std::string::npos) << r.body();
  }
  EXPECT_TRUE(broker_.queries.empty());
}

TEST_F(HttpApiTest, UnknownPathsAre404AndWrongMethods405WithAllow) {
  Response r = Call(verb::get, "/v1/nothing");
  EXPECT_EQ(r.result(), status::not_found);
  EXPECT_NE(r.body().find("no such endpoint: GET /v1/nothing"), std::string::npos) << r.body();
  r = Call(verb::delete_, "/v1/streams/s/records");
  EXPECT_EQ(r.result(), status::method_not_allowed);
  EXPECT_EQ(r[field::allow], "GET, POST");
  r = Call(verb::get, "/v1/streams/s/records/extra");
  EXPECT_EQ(r.result(), status::not_found);
}

TEST_F(HttpApiTest, ServesTheWebConsole) {
  Response r = Call(verb::get, "/");
  EXPECT_EQ(r.result(), status::ok);
  EXPECT_EQ(r[field::content_type], "text/html; charset=utf-8");
  EXPECT_EQ(r.body(), web::FindConsoleAsset("/index.html")->bytes);
  EXPECT_EQ(r["X-Content-Type-Options"], "nosniff");
  EXPECT_TRUE(r["Content-Security-Policy"].starts_with("default-src 'self';"));
  r = Call(verb::get, "/console.js?v=1");
  EXPECT_EQ(r.result(), status::ok);
  EXPECT_EQ(r[field::content_type], "text/javascript; charset=utf-8");
  EXPECT_EQ(r.body(), web::FindConsoleAsset("/console.js")->bytes);
  r = Call(verb::post, "/index.html", "x");
  EXPECT_EQ(r.result(), status::method_not_allowed);
  EXPECT_EQ(r[field::allow], "GET");
  r = Call(verb::get, "/missing.html");
  EXPECT_EQ(r.result(), status::not_found);
  EXPECT_NE(r.body().find("no such endpoint"), std::string::npos) << r.body();
}

TEST(HttpApiConsoleTest, TheConsoleNeedsNoTokenWhenTheApiDoes) {
  auto verifier = auth::JwtVerifier::FromSecret(std::string(32, 'k'));
  ASSERT_TRUE(verifier.ok()) << verifier.status().ToString();
  testing::FakeBrokerApi broker;
  HttpApiOptions options;
  options.verifier = verifier->get();
  options.require_token = true;
  HttpApi api(&broker, options);
  auto call = [&api](std::string target) {
    std::optional<Response> answer;
    api.Handle(Request(verb::get, target, 11), [&answer](Response r) { answer = std::move(r); });
    return answer ? answer->result() : status::unknown;
  };
  EXPECT_EQ(call("/"), status::ok);
  EXPECT_EQ(call("/console.css"), status::ok);
  EXPECT_EQ(call("/v1/streams"), status::unauthorized);
}

TEST_F(HttpApiTest, StreamsListsTheBrokersMetadata) {
  broker::StreamInfo info;
  info.name = "flights_classified";
  info.kind = "map";
  info.decl.partition_key = "origin";
  info.decl.base = "flights";
  info.decl.fn = "delay_class";
  info.decl.buckets = 4;
  info.partition_count = 2;
  info.record_count = 10;
  info.partitions = {{"JFK", 3}, {"SFO", 7}};
  broker_.metadata = std::vector<broker::StreamInfo>{info};
  Response r = Call(verb::get, "/v1/streams");
  EXPECT_EQ(r.result(), status::ok);
  EXPECT_EQ(r.body(),
            R"({"streams":[{"name":"flights_classified","kind":"map","partition_key":"origin",)"
            R"("buckets":4,"schema":[],"partitions":2,"records":10,"lag":0,)"
            R"("inputs":["flights"],"fn":"delay_class","window":null,)"
            R"("latest_offsets":{"JFK":2,"SFO":6},"latest_offsets_truncated":false}]})");
}

}  // namespace
}  // namespace higgins::server::http

namespace higgins::server::http {
namespace {

TEST(WsGrantTest, WithoutAKeyAStreamIsOpenToReadAndWrite) {
  WsRefusal refusal;
  auto grant = DecideWebSocket("/v1/ws/flights?key=SFO&from=3", nullptr, 0, &refusal);
  ASSERT_TRUE(grant.has_value()) << refusal.message;
  EXPECT_EQ(grant->streams, std::vector<std::string>{"flights"});
  EXPECT_TRUE(grant->read);
  EXPECT_TRUE(grant->write);
  EXPECT_EQ(grant->key, "SFO");
  EXPECT_EQ(grant->from, WsGrant::From::kOffset);
  EXPECT_EQ(grant->from_offset, 3u);
  EXPECT_FALSE(grant->batch);
  grant = DecideWebSocket("/v1/ws/flights?from=beginning&batch=true", nullptr, 0, &refusal);
  ASSERT_TRUE(grant.has_value());
  EXPECT_EQ(grant->from, WsGrant::From::kBeginning);
  EXPECT_TRUE(grant->batch);
}

TEST(WsGrantTest, RefusalsSayWhyWithTheirStatus) {
  struct Case {
    const char* target;
    beast_http::status status;
    const char* message;
  };
  for (const Case& c : {
           Case{"/v1/ws/flights/eyJhbGciOiJIUzI1NiJ9.e30.sig", beast_http::status::unauthorized,
                "has no JWT key"},
           Case{"/v1/ws/flights?from=3", beast_http::status::bad_request, "needs key"},
           Case{"/v1/ws/flights?from=soon", beast_http::status::bad_request, "beginning, latest"},
           Case{"/v1/ws/flights?batch=yes", beast_http::status::bad_request, "true or false"},
           Case{"/v1/ws", beast_http::status::not_found, "WebSocket channels are"},
           Case{"/v1/ws/a/b/c", beast_http::status::not_found, "WebSocket channels are"},
           Case{"/v1/ws/%zz", beast_http::status::bad_request, "percent escape"},
       }) {
    WsRefusal refusal;
    EXPECT_FALSE(DecideWebSocket(c.target, nullptr, 0, &refusal).has_value()) << c.target;
    EXPECT_EQ(refusal.status, c.status) << c.target;
    EXPECT_NE(refusal.message.find(c.message), std::string::npos)
        << c.target << ": " << refusal.message;
  }
}

}  // namespace
}  // namespace higgins::server::http
