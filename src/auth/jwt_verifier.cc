#include "auth/jwt_verifier.h"

#include <jwt.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdlib>
#include <optional>

#include "auth/base64url.h"
#include "common/file_util.h"

namespace higgins::auth {
namespace {

struct JwtFree {
  void operator()(jwt_t* jwt) const { jwt_free(jwt); }
};
using JwtPtr = std::unique_ptr<jwt_t, JwtFree>;

struct MallocFree {  // what libjwt's jwt_get_*_json return is the caller's to free(3)
  void operator()(char* p) const { std::free(p); }
};

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};

struct PkeyFree {
  void operator()(EVP_PKEY* pkey) const { EVP_PKEY_free(pkey); }
};

/// Clears the calling thread's OpenSSL error queue on scope exit. libjwt returns errno values
/// and leaves OpenSSL's errors queued, where the next OpenSSL user on the thread (a TLS
/// connection) would find them.
class OpenSslErrorScope {
 public:
  OpenSslErrorScope() = default;
  OpenSslErrorScope(const OpenSslErrorScope&) = delete;
  OpenSslErrorScope& operator=(const OpenSslErrorScope&) = delete;
  ~OpenSslErrorScope() { ERR_clear_error(); }
};

constexpr uint32_t Bit(jwt_alg_t alg) {
  return uint32_t{1} << static_cast<unsigned>(alg);
}
constexpr uint32_t kHmacAlgorithms = Bit(JWT_ALG_HS256) | Bit(JWT_ALG_HS384) | Bit(JWT_ALG_HS512);
constexpr uint32_t kRsaAlgorithms = Bit(JWT_ALG_RS256) | Bit(JWT_ALG_RS384) | Bit(JWT_ALG_RS512);

/// jansson seeds its hash function when the first JSON object is created; doing it here, before
/// a verifier exists, keeps that first time off the threads that share the verifier.
void SeedJsonHash() {
  jwt_t* jwt = nullptr;
  if (jwt_new(&jwt) == 0) jwt_free(jwt);
}

struct TokenParts {
  std::string_view header, payload, signature;
};

/// The three parts of `token` when it has exactly two dots and only base64url bytes elsewhere
/// (parts may be empty).
std::optional<TokenParts> SplitToken(std::string_view token) {
  const size_t first = token.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  const size_t second = token.find('.', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  TokenParts parts{token.substr(0, first), token.substr(first + 1, second - first - 1),
                   token.substr(second + 1)};
  if (!IsBase64UrlAlphabet(parts.header) || !IsBase64UrlAlphabet(parts.payload) ||
      !IsBase64UrlAlphabet(parts.signature)) {
    return std::nullopt;  // a third dot fails here too
  }
  return parts;
}

/// True when `part` decodes to text whose first byte other than JSON whitespace is `{`.
bool DecodesToJsonObject(std::string_view part) {
  const std::optional<std::string> text = Base64UrlDecode(part);
  if (!text) return false;
  const size_t start = text->find_first_not_of(" \t\r\n");
  return start != std::string::npos && (*text)[start] == '{';
}

Status Malformed(std::string_view why) {
  return Status::InvalidArgument("malformed token: " + std::string(why));
}

Status MalformedHeaderOrPayload() {
  return Malformed(
      "its header or payload is not base64url-encoded JSON, or its header has no known \"alg\" "
      "or a \"typ\" other than JWT");
}

std::string ReadableAlgorithm(jwt_alg_t alg) {
  const char* name = jwt_alg_str(alg);
  return name != nullptr ? name : "unknown";
}

/// The algorithms `public_key` verifies, or the reason it is refused.
Result<uint32_t> PublicKeyAlgorithms(EVP_PKEY* public_key) {
  switch (EVP_PKEY_get_base_id(public_key)) {
    case EVP_PKEY_RSA: {
      const int bits = EVP_PKEY_get_bits(public_key);
      if (bits < kMinRsaBits) {
        return Status::InvalidArgument("the JWT public key is a " + std::to_string(bits) +
                                       "-bit RSA key; at least " + std::to_string(kMinRsaBits) +
                                       " bits are required");
      }
      return kRsaAlgorithms;
    }
    case EVP_PKEY_EC: {
      char curve[80] = {};
      size_t length = 0;
      if (EVP_PKEY_get_group_name(public_key, curve, sizeof(curve), &length) != 1) curve[0] = 0;
      const std::string_view name(curve);
      if (name == "prime256v1") return Bit(JWT_ALG_ES256);
      if (name == "secp384r1") return Bit(JWT_ALG_ES384);
      if (name == "secp521r1") return Bit(JWT_ALG_ES512);
      return Status::InvalidArgument("the JWT public key is an EC key on curve '" +
                                     std::string(name.empty() ? "?" : name) +
                                     "'; ES256, ES384 and ES512 need P-256, P-384 or P-521");
    }
    default: {
      const char* type = EVP_PKEY_get0_type_name(public_key);
      return Status::InvalidArgument(
          "the JWT public key is of type " + std::string(type != nullptr ? type : "?") +
          "; only RSA (RS256, RS384, RS512) and EC (ES256, ES384, ES512) keys are supported");
    }
  }
}

}  // namespace

bool LooksLikeJwt(std::string_view s) {
  const std::optional<TokenParts> parts = SplitToken(s);
  return parts && !parts->header.empty() && !parts->payload.empty() && !parts->signature.empty() &&
         DecodesToJsonObject(parts->header);
}

JwtVerifier::JwtVerifier(std::string key, uint32_t allowed_algorithms)
    : key_(std::move(key)), allowed_algorithms_(allowed_algorithms) {}

JwtVerifier::~JwtVerifier() {
  OPENSSL_cleanse(key_.data(), key_.size());
}

Result<std::unique_ptr<JwtVerifier>> JwtVerifier::FromSecret(std::string secret) {
  if (secret.empty()) return Status::InvalidArgument("the JWT secret is empty");
  if (secret.size() > kMaxKeyFileBytes) {
    return Status::InvalidArgument("the JWT secret has " + std::to_string(secret.size()) +
                                   " bytes, more than the limit of " +
                                   std::to_string(kMaxKeyFileBytes));
  }
  if (secret.size() < kMinSecretBytes) {
    return Status::InvalidArgument(
        "the JWT secret has " + std::to_string(secret.size()) + " bytes; at least " +
        std::to_string(kMinSecretBytes) +
        " are required, because a short HMAC secret can be found by brute force from any one "
        "token it signed (generate one with `openssl rand -base64 32`)");
  }
  if (secret.starts_with("-----BEGIN")) {
    return Status::InvalidArgument(
        "the JWT secret is a PEM block: load a public key as a public key, not as a secret "
        "(as an HMAC secret, a public key would let anyone who has it sign tokens)");
  }
  SeedJsonHash();
  return std::unique_ptr<JwtVerifier>(new JwtVerifier(std::move(secret), kHmacAlgorithms));
}

Result<std::unique_ptr<JwtVerifier>> JwtVerifier::FromPublicKeyPem(std::string pem) {
  if (pem.empty()) return Status::InvalidArgument("the JWT public key is empty");
  if (pem.size() > kMaxKeyFileBytes) {
    return Status::InvalidArgument("the JWT public key has " + std::to_string(pem.size()) +
                                   " bytes, more than the limit of " +
                                   std::to_string(kMaxKeyFileBytes));
  }
  OpenSslErrorScope errors;
  // The very call libjwt makes on every verification (jwt-openssl.c, jwt_verify_sha_pem), so
  // that a key it could not read is refused now rather than failing every token.
  std::unique_ptr<BIO, BioFree> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (bio == nullptr) return Status::Internal("BIO_new_mem_buf failed");
  std::unique_ptr<EVP_PKEY, PkeyFree> public_key(
      PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
  if (public_key == nullptr) {
    return Status::InvalidArgument(
        "the JWT public key is not a PEM public key (\"-----BEGIN PUBLIC KEY-----\", or "
        "\"-----BEGIN RSA PUBLIC KEY-----\"); a private key is not accepted (`openssl pkey -in "
        "KEY -pubout` writes its public key)");
  }
  HIGGINS_ASSIGN_OR_RETURN(const uint32_t algorithms, PublicKeyAlgorithms(public_key.get()));
  SeedJsonHash();
  return std::unique_ptr<JwtVerifier>(new JwtVerifier(std::move(pem), algorithms));
}

Result<std::unique_ptr<JwtVerifier>> JwtVerifier::FromSecretFile(const std::string& path) {
  Result<std::string> bytes = ReadFileToString(path, kMaxKeyFileBytes);
  if (!bytes.ok()) return bytes.status().WithContext("JWT secret file");
  std::string secret = std::move(bytes).value();
  if (secret.ends_with('\n')) secret.pop_back();
  Result<std::unique_ptr<JwtVerifier>> verifier = FromSecret(std::move(secret));
  if (!verifier.ok()) return verifier.status().WithContext("JWT secret file " + path);
  return verifier;
}

Result<std::unique_ptr<JwtVerifier>> JwtVerifier::FromPublicKeyFile(const std::string& path) {
  Result<std::string> bytes = ReadFileToString(path, kMaxKeyFileBytes);
  if (!bytes.ok()) return bytes.status().WithContext("JWT public key file");
  Result<std::unique_ptr<JwtVerifier>> verifier = FromPublicKeyPem(std::move(bytes).value());
  if (!verifier.ok()) return verifier.status().WithContext("JWT public key file " + path);
  return verifier;
}

Result<Claims> JwtVerifier::Verify(std::string_view token, int64_t now_s) const {
  if (token.size() > kMaxTokenBytes) {
    return Status::InvalidArgument("token has " + std::to_string(token.size()) +
                                   " bytes, more than the limit of " +
                                   std::to_string(kMaxTokenBytes));
  }
  const std::optional<TokenParts> parts = SplitToken(token);
  if (!parts || parts->header.empty() || parts->payload.empty()) {
    return Malformed("not three base64url parts separated by dots");
  }
  OpenSslErrorScope errors;
  const std::string text(token);  // libjwt reads a NUL-terminated string
  jwt_t* decoded = nullptr;
  // With a key, jwt_decode checks the signature with the algorithm the token's header names,
  // whatever the key is: the algorithm is checked against the key's below.
  if (jwt_decode(&decoded, text.c_str(), reinterpret_cast<const unsigned char*>(key_.data()),
                 static_cast<int>(key_.size())) != 0) {
    return DiagnoseRefusal(text);
  }
  const JwtPtr jwt(decoded);
  const jwt_alg_t alg = jwt_get_alg(jwt.get());
  HIGGINS_RETURN_IF_ERROR(CheckAlgorithm(alg));
  // libjwt matches "alg" without regard to case; RFC 7515 names are case-sensitive.
  const char* alg_text = jwt_get_header(jwt.get(), "alg");
  if (alg_text == nullptr || std::string_view(alg_text) != ReadableAlgorithm(alg)) {
    return Malformed("its \"alg\" is not spelled as RFC 7518 spells it (e.g. \"HS256\")");
  }
  // RFC 7515 §4.1.11: a token with critical extensions that are not understood is refused.
  if (std::unique_ptr<char, MallocFree>(jwt_get_headers_json(jwt.get(), "crit")) != nullptr) {
    return Status::InvalidArgument(
        "token's header has \"crit\" extensions, none of which are supported");
  }
  const std::unique_ptr<char, MallocFree> payload(jwt_get_grants_json(jwt.get(), nullptr));
  if (payload == nullptr) return Status::InvalidArgument("token's payload is not a JSON object");
  return ParseClaims(payload.get(), now_s);
}

Status JwtVerifier::DiagnoseRefusal(const std::string& token) const {
  // Decoded without a key, libjwt checks only the format (and forgets the algorithm unless it is
  // "none"; the header still has it).
  jwt_t* decoded = nullptr;
  if (jwt_decode(&decoded, token.c_str(), nullptr, 0) != 0) return MalformedHeaderOrPayload();
  const JwtPtr jwt(decoded);
  HIGGINS_RETURN_IF_ERROR(CheckAlgorithm(jwt_str_alg(jwt_get_header(jwt.get(), "alg"))));
  return Status::InvalidArgument("token's signature does not verify with this key");
}

Status JwtVerifier::CheckAlgorithm(int alg) const {
  if (alg == JWT_ALG_NONE) {
    return Status::InvalidArgument("token's algorithm \"none\" (no signature) is not allowed");
  }
  if (alg < 0 || alg >= JWT_ALG_TERM) return MalformedHeaderOrPayload();
  if ((allowed_algorithms_ & Bit(static_cast<jwt_alg_t>(alg))) == 0) {
    return Status::InvalidArgument(
        "token's algorithm " + ReadableAlgorithm(static_cast<jwt_alg_t>(alg)) +
        " is not allowed with this key (allowed: " + AllowedAlgorithms() + ")");
  }
  return Status::OK();
}

std::string JwtVerifier::AllowedAlgorithms() const {
  std::string names;
  for (int alg = JWT_ALG_NONE + 1; alg < JWT_ALG_TERM; ++alg) {
    if ((allowed_algorithms_ & Bit(static_cast<jwt_alg_t>(alg))) == 0) continue;
    if (!names.empty()) names += ", ";
    names += ReadableAlgorithm(static_cast<jwt_alg_t>(alg));
  }
  return names;
}

}  // namespace higgins::auth
