#include "auth/jwt_verifier.h"

#include <gtest/gtest.h>
#include <jwt.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "auth/base64url.h"
#include "common/file_util.h"

namespace higgins::auth {
namespace {

constexpr int64_t kNow = 1700000000;  // 2023-11-14T22:13:20Z
constexpr std::string_view kSecret = "higgins-test-secret-0123456789abcdef";       // 36 bytes
constexpr std::string_view kOtherSecret = "another-test-secret-0123456789abcdef";  // 36 bytes

std::string TestdataPath(std::string_view name) {
  return std::string(HIGGINS_SOURCE_DIR) + "/src/auth/testdata/" + std::string(name);
}

std::string ReadTestdata(std::string_view name) {
  Result<std::string> bytes = ReadFileToString(TestdataPath(name));
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? *bytes : std::string();
}

/// A token signed by libjwt's encoder; `claims_json` is the payload, a JSON object.
std::string LibjwtToken(jwt_alg_t alg, std::string_view key, const std::string& claims_json) {
  jwt_t* jwt = nullptr;
  if (jwt_new(&jwt) != 0) {
    ADD_FAILURE() << "jwt_new failed";
    return "";
  }
  const std::unique_ptr<jwt_t, decltype(&jwt_free)> owner(jwt, &jwt_free);
  EXPECT_EQ(jwt_add_grants_json(jwt, claims_json.c_str()), 0) << claims_json;
  const bool none = alg == JWT_ALG_NONE;
  EXPECT_EQ(
      jwt_set_alg(jwt, alg, none ? nullptr : reinterpret_cast<const unsigned char*>(key.data()),
                  none ? 0 : static_cast<int>(key.size())),
      0);
  char* encoded = jwt_encode_str(jwt);
  if (encoded == nullptr) {
    ADD_FAILURE() << "jwt_encode_str failed";
    return "";
  }
  std::string token(encoded);
  std::free(encoded);
  return token;
}

/// A token built by hand (any header), signed with HMAC-SHA-256 by OpenSSL.
std::string HmacToken(std::string_view header_json, std::string_view payload_json,
                      std::string_view secret) {
  const std::string input = Base64UrlEncode(header_json) + "." + Base64UrlEncode(payload_json);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &length);
  return input + "." + Base64UrlEncode(std::string_view(reinterpret_cast<char*>(mac), length));
}

constexpr std::string_view kHs256Header = R"({"alg":"HS256","typ":"JWT"})";

/// `token` with its payload replaced by `payload_json`, the signature kept.
std::string WithPayload(const std::string& token, std::string_view payload_json) {
  const size_t first = token.find('.');
  const size_t second = token.find('.', first + 1);
  return token.substr(0, first + 1) + Base64UrlEncode(payload_json) + token.substr(second);
}

enum class Key { kSecret, kRsa, kEcP256, kEcP384 };

std::unique_ptr<JwtVerifier> Load(Result<std::unique_ptr<JwtVerifier>> verifier) {
  EXPECT_TRUE(verifier.ok()) << verifier.status().ToString();
  return verifier.ok() ? std::move(verifier).value() : nullptr;
}

/// One verifier per key, loaded the first time a test asks for it.
const JwtVerifier* Verifier(Key key) {
  switch (key) {
    case Key::kSecret: {
      static const auto verifier = Load(JwtVerifier::FromSecret(std::string(kSecret)));
      return verifier.get();
    }
    case Key::kRsa: {
      static const auto verifier =
          Load(JwtVerifier::FromPublicKeyFile(TestdataPath("rsa2048_public.pem")));
      return verifier.get();
    }
    case Key::kEcP256: {
      static const auto verifier =
          Load(JwtVerifier::FromPublicKeyFile(TestdataPath("ec_p256_public.pem")));
      return verifier.get();
    }
    case Key::kEcP384: {
      static const auto verifier =
          Load(JwtVerifier::FromPublicKeyFile(TestdataPath("ec_p384_public.pem")));
      return verifier.get();
    }
  }
  return nullptr;
}

std::string Hs256(const std::string& claims) {
  return LibjwtToken(JWT_ALG_HS256, kSecret, claims);
}
std::string Rs256(const std::string& claims) {
  return LibjwtToken(JWT_ALG_RS256, ReadTestdata("rsa2048_private.pem"), claims);
}
std::string Es256(const std::string& claims) {
  return LibjwtToken(JWT_ALG_ES256, ReadTestdata("ec_p256_private.pem"), claims);
}

const std::string kReadFlights = R"({"mode":"r","channel":"flights"})";

struct TokenCase {
  std::string name;
  Key key;
  std::function<std::string()> token;
  std::optional<Claims> expected;  // nullopt: an InvalidArgument containing `error`
  std::string error;
};

std::ostream& operator<<(std::ostream& out, const TokenCase& c) {
  return out << c.name;
}

const Claims kReadFlightsClaims{Mode::kRead, {"flights"}, std::nullopt};

const std::vector<TokenCase> kTokenCases = {
    // Good tokens of each family.
    {"Hs256", Key::kSecret, [] { return Hs256(kReadFlights); }, kReadFlightsClaims, ""},
    {"Hs384", Key::kSecret, [] { return LibjwtToken(JWT_ALG_HS384, kSecret, kReadFlights); },
     kReadFlightsClaims, ""},
    {"Hs512", Key::kSecret, [] { return LibjwtToken(JWT_ALG_HS512, kSecret, kReadFlights); },
     kReadFlightsClaims, ""},
    {"Rs256", Key::kRsa,
     [] { return Rs256(R"({"mode":"rw","channels":["a","b"],"exp":1700003600})"); },
     Claims{Mode::kReadWrite, {"a", "b"}, 1700003600}, ""},
    {"Rs512", Key::kRsa,
     [] { return LibjwtToken(JWT_ALG_RS512, ReadTestdata("rsa2048_private.pem"), kReadFlights); },
     kReadFlightsClaims, ""},
    {"Es256", Key::kEcP256, [] { return Es256(R"({"mode":"w","channel":"*"})"); },
     Claims{Mode::kWrite, {"*"}, std::nullopt}, ""},
    {"Es384", Key::kEcP384,
     [] { return LibjwtToken(JWT_ALG_ES384, ReadTestdata("ec_p384_private.pem"), kReadFlights); },
     kReadFlightsClaims, ""},
    // Signatures that do not verify.
    {"WrongSecret", Key::kSecret,
     [] { return LibjwtToken(JWT_ALG_HS256, kOtherSecret, kReadFlights); }, std::nullopt,
     "signature does not verify"},
    {"TamperedPayloadHs256", Key::kSecret,
     [] { return WithPayload(Hs256(kReadFlights), R"({"mode":"rw","channel":"*"})"); },
     std::nullopt, "signature does not verify"},
    {"TamperedPayloadRs256", Key::kRsa,
     [] { return WithPayload(Rs256(kReadFlights), R"({"mode":"rw","channel":"*"})"); },
     std::nullopt, "signature does not verify"},
    {"TamperedPayloadEs256", Key::kEcP256,
     [] { return WithPayload(Es256(kReadFlights), R"({"mode":"rw","channel":"*"})"); },
     std::nullopt, "signature does not verify"},
    {"SignatureCutOff", Key::kSecret,
     [] {
       const std::string token = Hs256(kReadFlights);
       return token.substr(0, token.rfind('.') + 1);
     },
     std::nullopt, "signature does not verify"},
    {"SignatureOfAnotherToken", Key::kRsa,
     [] {
       const std::string other = Rs256(R"({"mode":"r","channel":"other"})");
       const std::string token = Rs256(kReadFlights);
       return token.substr(0, token.rfind('.')) + other.substr(other.rfind('.'));
     },
     std::nullopt, "signature does not verify"},
    // Algorithms the key does not allow.
    {"AlgNoneAgainstSecret", Key::kSecret,
     [] { return LibjwtToken(JWT_ALG_NONE, "", kReadFlights); }, std::nullopt,
     "algorithm \"none\" (no signature) is not allowed"},
    {"AlgNoneAgainstPublicKey", Key::kRsa,
     [] { return LibjwtToken(JWT_ALG_NONE, "", kReadFlights); }, std::nullopt,
     "algorithm \"none\" (no signature) is not allowed"},
    {"AlgNoneUppercaseWithSignature", Key::kSecret,
     [] { return HmacToken(R"({"alg":"NONE"})", kReadFlights, kSecret); }, std::nullopt,
     "algorithm \"none\" (no signature) is not allowed"},
    {"HsSignedWithRsaPublicKeyPem", Key::kRsa,
     [] { return LibjwtToken(JWT_ALG_HS256, ReadTestdata("rsa2048_public.pem"), kReadFlights); },
     std::nullopt, "algorithm HS256 is not allowed with this key (allowed: RS256, RS384, RS512)"},
    {"HsSignedWithEcPublicKeyPem", Key::kEcP256,
     [] { return LibjwtToken(JWT_ALG_HS512, ReadTestdata("ec_p256_public.pem"), kReadFlights); },
     std::nullopt, "algorithm HS512 is not allowed with this key (allowed: ES256)"},
    {"RsTokenAgainstSecret", Key::kSecret, [] { return Rs256(kReadFlights); }, std::nullopt,
     "algorithm RS256 is not allowed with this key (allowed: HS256, HS384, HS512)"},
    {"EsTokenAgainstRsaKey", Key::kRsa, [] { return Es256(kReadFlights); }, std::nullopt,
     "algorithm ES256 is not allowed"},
    {"Es256SignedWithP384Key", Key::kEcP384,
     [] { return LibjwtToken(JWT_ALG_ES256, ReadTestdata("ec_p384_private.pem"), kReadFlights); },
     std::nullopt, "algorithm ES256 is not allowed with this key (allowed: ES384)"},
    {"AlgLowercase", Key::kSecret,
     [] { return HmacToken(R"({"alg":"hs256","typ":"JWT"})", kReadFlights, kSecret); },
     std::nullopt, "\"alg\" is not spelled as RFC 7518 spells it"},
    {"AlgUnknown", Key::kSecret,
     [] { return HmacToken(R"({"alg":"HS1024"})", kReadFlights, kSecret); }, std::nullopt,
     "malformed token: its header or payload"},
    {"AlgMissing", Key::kSecret,
     [] { return HmacToken(R"({"typ":"JWT"})", kReadFlights, kSecret); }, std::nullopt,
     "malformed token: its header or payload"},
    // Headers.
    {"HeaderWithKid", Key::kSecret,
     [] { return HmacToken(R"({"alg":"HS256","kid":"2024-05"})", kReadFlights, kSecret); },
     kReadFlightsClaims, ""},
    {"TypOtherThanJwt", Key::kSecret,
     [] { return HmacToken(R"({"alg":"HS256","typ":"at+jwt"})", kReadFlights, kSecret); },
     std::nullopt, "a \"typ\" other than JWT"},
    {"CriticalExtension", Key::kSecret,
     [] { return HmacToken(R"({"alg":"HS256","crit":["exp"]})", kReadFlights, kSecret); },
     std::nullopt, "\"crit\" extensions"},
    // Times.
    {"Expired", Key::kSecret,
     [] { return Hs256(R"({"mode":"r","channel":"a","exp":1699999999})"); }, std::nullopt,
     "token expired at 2023-11-14T22:13:19Z"},
    {"ExpiresNow", Key::kSecret,
     [] { return Hs256(R"({"mode":"r","channel":"a","exp":1700000000})"); }, std::nullopt,
     "token expired at 2023-11-14T22:13:20Z"},
    {"ExpiresInOneSecond", Key::kRsa,
     [] { return Rs256(R"({"mode":"r","channel":"a","exp":1700000001})"); },
     Claims{Mode::kRead, {"a"}, 1700000001}, ""},
    {"ExpFraction", Key::kSecret,
     [] { return Hs256(R"({"mode":"r","channel":"a","exp":1700000000.5})"); },
     Claims{Mode::kRead, {"a"}, 1700000001}, ""},
    {"NotYetValid", Key::kSecret,
     [] { return Hs256(R"({"mode":"r","channel":"a","nbf":1700000060})"); }, std::nullopt,
     "token is not valid before 2023-11-14T22:14:20Z"},
    {"ValidFromNow", Key::kEcP256,
     [] { return Es256(R"({"mode":"r","channel":"a","nbf":1700000000})"); },
     Claims{Mode::kRead, {"a"}, std::nullopt}, ""},
    // Claims.
    {"ModeMissing", Key::kSecret, [] { return Hs256(R"({"channel":"a"})"); }, std::nullopt,
     "token has no \"mode\" claim"},
    {"ModeX", Key::kSecret, [] { return Hs256(R"({"mode":"x","channel":"a"})"); }, std::nullopt,
     "token's \"mode\" claim is not \"r\", \"w\" or \"rw\""},
    {"Channel", Key::kSecret, [] { return Hs256(R"({"mode":"w","channel":"a"})"); },
     Claims{Mode::kWrite, {"a"}, std::nullopt}, ""},
    {"Channels", Key::kSecret, [] { return Hs256(R"({"mode":"w","channels":["a","b"]})"); },
     Claims{Mode::kWrite, {"a", "b"}, std::nullopt}, ""},
    {"ChannelAndChannels", Key::kSecret,
     [] { return Hs256(R"({"mode":"rw","channel":"c","channels":["a","c"]})"); },
     Claims{Mode::kReadWrite, {"c", "a"}, std::nullopt}, ""},
    {"EveryChannel", Key::kSecret, [] { return Hs256(R"({"mode":"rw","channels":["*"]})"); },
     Claims{Mode::kReadWrite, {"*"}, std::nullopt}, ""},
    {"NoChannel", Key::kSecret, [] { return Hs256(R"({"mode":"r"})"); }, std::nullopt,
     "neither a \"channel\" nor a \"channels\" claim"},
    {"ChannelsEmpty", Key::kSecret, [] { return Hs256(R"({"mode":"r","channels":[]})"); },
     std::nullopt, "\"channels\" claim is not a non-empty array"},
    {"ChannelEmpty", Key::kSecret, [] { return Hs256(R"({"mode":"r","channel":""})"); },
     std::nullopt, "\"channel\" claim is not a non-empty string"},
    {"ChannelsNotStrings", Key::kSecret, [] { return Hs256(R"({"mode":"r","channels":[1]})"); },
     std::nullopt, "\"channels\" claim is not"},
    {"PayloadArray", Key::kSecret, [] { return HmacToken(kHs256Header, "[1,2]", kSecret); },
     std::nullopt, "payload is not a JSON object"},
    {"PayloadNotJson", Key::kSecret, [] { return HmacToken(kHs256Header, "mode=r", kSecret); },
     std::nullopt, "malformed token: its header or payload"},
    // Garbage.
    {"Empty", Key::kSecret, [] { return std::string(); }, std::nullopt,
     "malformed token: not three base64url parts"},
    {"Word", Key::kSecret, [] { return std::string("flights"); }, std::nullopt,
     "malformed token: not three base64url parts"},
    {"TwoParts", Key::kSecret,
     [] {
       const std::string token = Hs256(kReadFlights);
       return token.substr(0, token.rfind('.'));
     },
     std::nullopt, "malformed token: not three base64url parts"},
    {"FourParts", Key::kSecret, [] { return Hs256(kReadFlights) + ".e30"; }, std::nullopt,
     "malformed token: not three base64url parts"},
    {"EmptyHeader", Key::kSecret,
     [] {
       const std::string token = Hs256(kReadFlights);
       return token.substr(token.find('.'));
     },
     std::nullopt, "malformed token: not three base64url parts"},
    {"TrailingNewline", Key::kSecret, [] { return Hs256(kReadFlights) + "\n"; }, std::nullopt,
     "malformed token: not three base64url parts"},
    {"PaddedSignature", Key::kSecret, [] { return Hs256(kReadFlights) + "="; }, std::nullopt,
     "malformed token: not three base64url parts"},
    {"EmbeddedNul", Key::kSecret,
     [] { return Hs256(kReadFlights).insert(5, std::string(1, '\0')); }, std::nullopt,
     "malformed token: not three base64url parts"},
    {"Dots", Key::kSecret, [] { return std::string(".."); }, std::nullopt, "malformed token"},
    {"Bearer", Key::kSecret, [] { return "Bearer " + Hs256(kReadFlights); }, std::nullopt,
     "malformed token"},
    {"NotBase64Json", Key::kSecret, [] { return std::string("aGVsbG8.d29ybGQ.c2ln"); },
     std::nullopt, "malformed token: its header or payload"},
};

class VerifyTest : public ::testing::TestWithParam<TokenCase> {};

TEST_P(VerifyTest, Case) {
  const TokenCase& c = GetParam();
  const JwtVerifier* verifier = Verifier(c.key);
  ASSERT_NE(verifier, nullptr);
  const std::string token = c.token();
  Result<Claims> claims = verifier->Verify(token, kNow);
  if (c.expected) {
    ASSERT_TRUE(claims.ok()) << claims.status().ToString();
    EXPECT_EQ(*claims, *c.expected);
    return;
  }
  ASSERT_FALSE(claims.ok());
  EXPECT_EQ(claims.status().code(), StatusCode::kInvalidArgument);
  const std::string& message = claims.status().message();
  EXPECT_NE(message.find(c.error), std::string::npos) << message;
  // Messages never quote the token: none holds its payload or signature.
  for (size_t start = 0, end; start < token.size(); start = end + 1) {
    end = std::min(token.find('.', start), token.size());
    if (end - start >= 8) {
      EXPECT_EQ(message.find(token.substr(start, end - start)), std::string::npos) << message;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Tokens, VerifyTest, ::testing::ValuesIn(kTokenCases),
                         [](const auto& info) { return info.param.name; });

TEST(VerifyLimitTest, TokensUpTo8KiBAreReadAndLongerOnesRefusedBeforeDecoding) {
  const JwtVerifier* verifier = Verifier(Key::kSecret);
  ASSERT_NE(verifier, nullptr);
  std::string longest_accepted;
  std::string shortest_refused;
  for (size_t pad = 5900; shortest_refused.empty(); ++pad) {
    const std::string token =
        Hs256(R"({"mode":"r","channel":"a","pad":")" + std::string(pad, 'x') + "\"}");
    ASSERT_LT(pad, 6200u) << "no token near the limit";
    (token.size() <= kMaxTokenBytes ? longest_accepted : shortest_refused) = token;
  }
  EXPECT_GE(longest_accepted.size(), kMaxTokenBytes - 3);
  EXPECT_TRUE(verifier->Verify(longest_accepted, kNow).ok());
  Result<Claims> refused = verifier->Verify(shortest_refused, kNow);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "token has " + std::to_string(shortest_refused.size()) +
                                            " bytes, more than the limit of 8192");
}

TEST(VerifyLimitTest, HugeGarbageIsRefusedByItsSize) {
  const JwtVerifier* verifier = Verifier(Key::kRsa);
  ASSERT_NE(verifier, nullptr);
  Result<Claims> refused = verifier->Verify(std::string(1 << 20, '.'), kNow);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "token has 1048576 bytes, more than the limit of 8192");
}

TEST(VerifyThreadsTest, ManyThreadsVerifyWithOneVerifierAtOnce) {
  struct Work {
    const JwtVerifier* verifier;
    std::string good;
    std::string bad;
  };
  const std::vector<Work> work = {
      {Verifier(Key::kSecret), Hs256(kReadFlights),
       LibjwtToken(JWT_ALG_HS256, kOtherSecret, kReadFlights)},
      {Verifier(Key::kRsa), Rs256(kReadFlights),
       LibjwtToken(JWT_ALG_HS256, ReadTestdata("rsa2048_public.pem"), kReadFlights)},
      {Verifier(Key::kEcP256), Es256(kReadFlights),
       WithPayload(Es256(kReadFlights), R"({"mode":"rw","channel":"*"})")},
  };
  for (const Work& w : work) ASSERT_NE(w.verifier, nullptr);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 60; ++i) {
        const Work& w = work[static_cast<size_t>(t + i) % work.size()];
        if (!w.verifier->Verify(w.good, kNow).ok()) ++wrong;
        if (w.verifier->Verify(w.bad, kNow).ok()) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

// ---- Keys --------------------------------------------------------------------------------

/// A file in a fresh temporary folder, removed with it.
class KeyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("higgins-auth-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(std::string_view name, std::string_view bytes) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(KeyFileTest, SecretFileLosesOneTrailingNewline) {
  auto verifier = JwtVerifier::FromSecretFile(Write("secret", std::string(kSecret) + "\n"));
  ASSERT_TRUE(verifier.ok()) << verifier.status().ToString();
  EXPECT_TRUE((*verifier)->Verify(Hs256(kReadFlights), kNow).ok());
  EXPECT_EQ((*verifier)->AllowedAlgorithms(), "HS256, HS384, HS512");
}

TEST_F(KeyFileTest, SecretFileKeepsASecondTrailingNewline) {
  auto verifier = JwtVerifier::FromSecretFile(Write("secret", std::string(kSecret) + "\n\n"));
  ASSERT_TRUE(verifier.ok()) << verifier.status().ToString();
  EXPECT_FALSE((*verifier)->Verify(Hs256(kReadFlights), kNow).ok());
  const std::string with_newline = std::string(kSecret) + "\n";
  EXPECT_TRUE(
      (*verifier)->Verify(LibjwtToken(JWT_ALG_HS256, with_newline, kReadFlights), kNow).ok());
}

TEST_F(KeyFileTest, SecretOf32BytesIsEnoughAnd31AreNot) {
  const std::string secret31 = "abcdefghijklmnopqrstuvwxyz01234";
  EXPECT_TRUE(JwtVerifier::FromSecret(secret31 + "5").ok());
  auto refused = JwtVerifier::FromSecret(secret31);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("has 31 bytes; at least 32 are required, because a "
                                            "short HMAC secret can be found by brute force"),
            std::string::npos)
      << refused.status().message();
  EXPECT_EQ(refused.status().message().find(secret31), std::string::npos);
}

TEST_F(KeyFileTest, ShortSecretFileIsNamedButNotQuoted) {
  const std::string path = Write("short", "hunter2hunter2\n");
  auto refused = JwtVerifier::FromSecretFile(path);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message().rfind("JWT secret file " + path +
                                                 ": the JWT secret has 14 "
                                                 "bytes; at least 32 are required",
                                             0),
            0u)
      << refused.status().message();
  EXPECT_EQ(refused.status().message().find("hunter2"), std::string::npos);
}

TEST_F(KeyFileTest, EmptySecretFileAndFileOfOneNewline) {
  for (std::string_view bytes : {"", "\n"}) {
    const std::string path = Write("empty", bytes);
    auto refused = JwtVerifier::FromSecretFile(path);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().ToString(),
              "InvalidArgument: JWT secret file " + path + ": the JWT secret is empty");
  }
}

TEST_F(KeyFileTest, MissingAndUnreadableFilesAreNamed) {
  const std::string missing = (dir_ / "missing").string();
  auto not_found = JwtVerifier::FromSecretFile(missing);
  ASSERT_FALSE(not_found.ok());
  EXPECT_EQ(not_found.status().ToString(),
            "NotFound: JWT secret file: " + missing + " does not exist");
  auto folder = JwtVerifier::FromPublicKeyFile(dir_.string());  // a folder cannot be read
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.status().code(), StatusCode::kIOError);
  EXPECT_NE(folder.status().message().find("JWT public key file: read " + dir_.string()),
            std::string::npos)
      << folder.status().message();
}

TEST_F(KeyFileTest, OversizedKeyFileIsRefusedUnread) {
  const std::string path = Write("big", std::string(kMaxKeyFileBytes + 1, 'k'));
  auto refused = JwtVerifier::FromSecretFile(path);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(refused.status().message().find(path), std::string::npos);
}

TEST_F(KeyFileTest, PemGivenAsSecretIsRefused) {
  auto refused = JwtVerifier::FromSecretFile(TestdataPath("rsa2048_public.pem"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("the JWT secret is a PEM block"), std::string::npos)
      << refused.status().message();
}

TEST_F(KeyFileTest, PublicKeysOfEachSupportedKind) {
  const std::pair<std::string_view, std::string_view> kinds[] = {
      {"rsa2048_public.pem", "RS256, RS384, RS512"},
      {"ec_p256_public.pem", "ES256"},
      {"ec_p384_public.pem", "ES384"},
  };
  for (const auto& [file, algorithms] : kinds) {
    auto verifier = JwtVerifier::FromPublicKeyFile(TestdataPath(file));
    ASSERT_TRUE(verifier.ok()) << file << ": " << verifier.status().ToString();
    EXPECT_EQ((*verifier)->AllowedAlgorithms(), algorithms) << file;
  }
}

// OpenSSL 3 reads a PKCS#1 "RSA PUBLIC KEY" block where a "PUBLIC KEY" one is asked for, and
// libjwt asks the same way, so such a key works end to end.
TEST_F(KeyFileTest, PkcsOneRsaPublicKeyVerifies) {
  auto verifier = JwtVerifier::FromPublicKeyFile(TestdataPath("rsa2048_public_pkcs1.pem"));
  ASSERT_TRUE(verifier.ok()) << verifier.status().ToString();
  EXPECT_TRUE((*verifier)->Verify(Rs256(kReadFlights), kNow).ok());
  EXPECT_FALSE((*verifier)->Verify(Es256(kReadFlights), kNow).ok());
}

TEST_F(KeyFileTest, PublicKeysThatAreRefused) {
  const std::pair<std::string_view, std::string_view> refused[] = {
      {"rsa2048_private.pem", "is not a PEM public key"},
      {"ec_p256_private.pem", "is not a PEM public key"},
      {"rsa1024_public.pem", "is a 1024-bit RSA key; at least 2048 bits are required"},
      {"ed25519_public.pem", "is of type ED25519; only RSA (RS256, RS384, RS512) and EC"},
  };
  for (const auto& [file, error] : refused) {
    const std::string path = TestdataPath(file);
    auto verifier = JwtVerifier::FromPublicKeyFile(path);
    ASSERT_FALSE(verifier.ok()) << file;
    EXPECT_EQ(verifier.status().code(), StatusCode::kInvalidArgument);
    const std::string& message = verifier.status().message();
    EXPECT_EQ(message.rfind("JWT public key file " + path + ": the JWT public key ", 0), 0u)
        << message;
    EXPECT_NE(message.find(error), std::string::npos) << message;
    EXPECT_EQ(message.find("MII"), std::string::npos) << "quotes the key: " << message;
  }
}

TEST_F(KeyFileTest, EmptyAndGarbagePublicKeyFiles) {
  const std::string empty = Write("empty.pem", "");
  auto refused = JwtVerifier::FromPublicKeyFile(empty);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().ToString(),
            "InvalidArgument: JWT public key file " + empty + ": the JWT public key is empty");
  const std::string garbage = Write("garbage.pem", "-----BEGIN PUBLIC KEY-----\nnot base64\n");
  refused = JwtVerifier::FromPublicKeyFile(garbage);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("is not a PEM public key"), std::string::npos);
  EXPECT_FALSE(JwtVerifier::FromPublicKeyPem(std::string(kSecret)).ok());
}

// ---- LooksLikeJwt ------------------------------------------------------------------------

TEST(LooksLikeJwtTest, TokensOfEveryFamily) {
  EXPECT_TRUE(LooksLikeJwt(Hs256(kReadFlights)));
  EXPECT_TRUE(LooksLikeJwt(Rs256(kReadFlights)));
  EXPECT_TRUE(LooksLikeJwt(Es256(kReadFlights)));
  EXPECT_TRUE(LooksLikeJwt(HmacToken(" {\"alg\":\"HS256\"}", "{}", kSecret)));
}

TEST(LooksLikeJwtTest, StreamNamesAndOtherShapes) {
  EXPECT_FALSE(LooksLikeJwt("flights"));
  EXPECT_FALSE(LooksLikeJwt("events.eu.west"));  // a valid stream name of three parts
  EXPECT_FALSE(LooksLikeJwt("flights_2024.v1.raw"));
  EXPECT_FALSE(LooksLikeJwt(""));
  EXPECT_FALSE(LooksLikeJwt(".."));
  EXPECT_FALSE(LooksLikeJwt("eyJ9.e30."));  // no signature: alg none
  EXPECT_FALSE(LooksLikeJwt(LibjwtToken(JWT_ALG_NONE, "", kReadFlights)));
  EXPECT_FALSE(LooksLikeJwt(".e30.c2ln"));
  EXPECT_FALSE(LooksLikeJwt(Hs256(kReadFlights) + ".x"));
  EXPECT_FALSE(LooksLikeJwt(Hs256(kReadFlights) + "="));
  EXPECT_FALSE(LooksLikeJwt("e30%3D.e30.c2ln"));
}

// ---- Tokens made by PyJWT, an implementation independent of libjwt ------------------------

/// PyJWT's token for each spec of testdata/pyjwt_tokens.py. Fails the test (never skips) when
/// /usr/bin/python3 cannot import jwt: scripts/install-deps installs python3-jwt.
std::vector<std::string> PyJwtTokens(const std::vector<std::string>& specs) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("higgins-pyjwt-" + std::to_string(getpid()) + ".json"))
                               .string();
  {
    std::ofstream out(path);
    out << "[";
    for (size_t i = 0; i < specs.size(); ++i) out << (i ? "," : "") << specs[i];
    out << "]";
  }
  const std::string command =
      "/usr/bin/python3 '" + TestdataPath("pyjwt_tokens.py") + "' '" + path + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  if (pipe != nullptr) {
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), pipe)) > 0) output.append(chunk, n);
  }
  const int rc = pipe != nullptr ? pclose(pipe) : -1;
  std::filesystem::remove(path);
  EXPECT_EQ(rc, 0) << "PyJWT failed (needs /usr/bin/python3 with python3-jwt): " << output;
  std::vector<std::string> tokens;
  for (size_t start = 0, end; (end = output.find('\n', start)) != std::string::npos;
       start = end + 1) {
    tokens.push_back(output.substr(start, end - start));
  }
  EXPECT_EQ(tokens.size(), specs.size()) << output;
  return tokens;
}

std::string PySpec(std::string_view alg, std::string_view key, std::string_view claims,
                   std::string_view headers = "{}") {
  const bool hmac = alg.starts_with("HS");
  return "{\"alg\":\"" + std::string(alg) + "\",\"" + (hmac ? "secret" : "key_file") + "\":\"" +
         (hmac ? std::string(key) : TestdataPath(key)) + "\",\"claims\":" + std::string(claims) +
         ",\"headers\":" + std::string(headers) + "}";
}

TEST(PyJwtTest, TokensOfEveryAlgorithmVerify) {
  const std::string claims =
      R"({"mode":"rw","channels":["a","b"],"exp":1700003600,"nbf":1699999940,"iat":1699999940})";
  const std::vector<std::pair<Key, std::string>> cases = {
      {Key::kSecret, PySpec("HS256", kSecret, claims)},
      {Key::kSecret, PySpec("HS384", kSecret, claims)},
      {Key::kSecret, PySpec("HS512", kSecret, claims, R"({"kid":"k1"})")},
      {Key::kRsa, PySpec("RS256", "rsa2048_private.pem", claims)},
      {Key::kRsa, PySpec("RS384", "rsa2048_private.pem", claims)},
      {Key::kRsa, PySpec("RS512", "rsa2048_private.pem", claims)},
      {Key::kEcP256, PySpec("ES256", "ec_p256_private.pem", claims)},
      {Key::kEcP384, PySpec("ES384", "ec_p384_private.pem", claims)},
  };
  std::vector<std::string> specs;
  for (const auto& c : cases) specs.push_back(c.second);
  const std::vector<std::string> tokens = PyJwtTokens(specs);
  ASSERT_EQ(tokens.size(), cases.size());
  const Claims expected{Mode::kReadWrite, {"a", "b"}, 1700003600};
  for (size_t i = 0; i < cases.size(); ++i) {
    const JwtVerifier* verifier = Verifier(cases[i].first);
    ASSERT_NE(verifier, nullptr);
    EXPECT_TRUE(LooksLikeJwt(tokens[i])) << cases[i].second;
    Result<Claims> verified = verifier->Verify(tokens[i], kNow);
    ASSERT_TRUE(verified.ok()) << cases[i].second << ": " << verified.status().ToString();
    EXPECT_EQ(*verified, expected) << cases[i].second;
  }
}

TEST(PyJwtTest, TokensThatAreRefused) {
  const std::string read_a = R"({"mode":"r","channel":"a"})";
  const std::vector<std::tuple<Key, std::string, std::string>> cases = {
      {Key::kSecret, R"({"alg":"none","claims":{"mode":"r","channel":"a"}})",
       "algorithm \"none\" (no signature) is not allowed"},
      {Key::kSecret, PySpec("HS256", kOtherSecret, read_a), "signature does not verify"},
      {Key::kSecret, PySpec("RS256", "rsa2048_private.pem", read_a),
       "algorithm RS256 is not allowed"},
      {Key::kEcP384, PySpec("ES256", "ec_p256_private.pem", read_a),
       "algorithm ES256 is not allowed"},
      {Key::kSecret, PySpec("HS256", kSecret, R"({"mode":"r","channel":"a","exp":1699999999})"),
       "token expired at 2023-11-14T22:13:19Z"},
      {Key::kRsa, PySpec("RS256", "rsa2048_private.pem", R"({"mode":"rw"})"),
       "neither a \"channel\" nor a \"channels\" claim"},
  };
  std::vector<std::string> specs;
  for (const auto& c : cases) specs.push_back(std::get<1>(c));
  const std::vector<std::string> tokens = PyJwtTokens(specs);
  ASSERT_EQ(tokens.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& [key, spec, error] = cases[i];
    const JwtVerifier* verifier = Verifier(key);
    ASSERT_NE(verifier, nullptr);
    Result<Claims> verified = verifier->Verify(tokens[i], kNow);
    ASSERT_FALSE(verified.ok()) << spec;
    EXPECT_NE(verified.status().message().find(error), std::string::npos)
        << spec << ": " << verified.status().message();
  }
}

// ---- What libjwt 1.10.2 does on its own (docs/auth.md, "libjwt") ---------------------------
// These pin the behaviours that JwtVerifier guards against; one failing after a libjwt upgrade
// means the guard or the documentation needs a second look.

int LibjwtDecode(const std::string& token, std::string_view key) {
  jwt_t* jwt = nullptr;
  const int rc =
      jwt_decode(&jwt, token.c_str(),
                 key.empty() ? nullptr : reinterpret_cast<const unsigned char*>(key.data()),
                 static_cast<int>(key.size()));
  jwt_free(jwt);
  return rc;
}

TEST(LibjwtTest, AloneItAcceptsAnHsTokenWhoseSecretIsThePublicKeyPem) {
  const std::string pem = ReadTestdata("rsa2048_public.pem");
  EXPECT_EQ(LibjwtDecode(LibjwtToken(JWT_ALG_HS256, pem, kReadFlights), pem), 0);
}

TEST(LibjwtTest, AloneItReadsAlgWithoutRegardToCase) {
  EXPECT_EQ(LibjwtDecode(HmacToken(R"({"alg":"hS256"})", kReadFlights, kSecret), kSecret), 0);
}

TEST(LibjwtTest, WithoutAKeyItChecksNoSignature) {
  EXPECT_EQ(LibjwtDecode(LibjwtToken(JWT_ALG_HS256, kOtherSecret, kReadFlights), ""), 0);
}

TEST(LibjwtTest, AloneItDoesNotTieEsAlgorithmsToCurves) {
  const std::string token =
      LibjwtToken(JWT_ALG_ES256, ReadTestdata("ec_p384_private.pem"), kReadFlights);
  EXPECT_EQ(LibjwtDecode(token, ReadTestdata("ec_p384_public.pem")), 0);
}

TEST(LibjwtTest, ItRefusesAlgNoneWhenGivenAKey) {
  EXPECT_NE(LibjwtDecode(LibjwtToken(JWT_ALG_NONE, "", kReadFlights), kSecret), 0);
}

TEST(LibjwtTest, ItRefusesTypOtherThanJwt) {
  EXPECT_NE(
      LibjwtDecode(HmacToken(R"({"alg":"HS256","typ":"at+jwt"})", kReadFlights, kSecret), kSecret),
      0);
}

}  // namespace
}  // namespace higgins::auth
