#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "auth/claims.h"
#include "higgins/result.h"

namespace higgins::auth {

/// Tokens longer than this are refused before anything decodes them.
inline constexpr size_t kMaxTokenBytes = size_t{8} * 1024;
/// The shortest shared secret accepted (the output size of HS256's hash).
inline constexpr size_t kMinSecretBytes = 32;
/// Key files longer than this are refused (a PEM public key takes a few KiB at most).
inline constexpr size_t kMaxKeyFileBytes = size_t{64} * 1024;
/// The smallest RSA modulus accepted, in bits.
inline constexpr int kMinRsaBits = 2048;

/// True when `s` has the shape of a JWS compact serialisation: three non-empty base64url parts
/// separated by two dots, the first of which decodes to text that starts with `{` (a JOSE header
/// is a JSON object). The HTTP router tells `/v1/ws/{jwt}` from `/v1/ws/{stream}` with it: a
/// stream name such as "events.eu.west" has three such parts but no JSON header. Says nothing
/// about the token's validity. Pure, thread-safe.
bool LooksLikeJwt(std::string_view s);

/// Verifies JSON Web Tokens (JWS, compact serialisation) signed with one key, and reads the
/// claims that grant access to streams (docs/auth.md). The key decides the algorithms:
/// a shared secret allows HS256, HS384 and HS512 only; an RSA public key RS256, RS384 and RS512
/// only; an EC public key the one ES algorithm of its curve (P-256: ES256, P-384: ES384, P-521:
/// ES512). "none" is never allowed.
///
/// Thread-safety: immutable after construction; Verify may run on many threads at once.
/// libjwt 1.10.2 keeps no global state (each call decodes into its own jwt_t, which copies the
/// key); jansson seeds its hash function once (atomically; the factories also create one JSON
/// object before returning, so it is seeded before the verifier is shared); OpenSSL 3 is
/// thread-safe, and Verify clears the calling thread's OpenSSL error queue before returning.
class JwtVerifier {
 public:
  /// HS256/HS384/HS512 with the shared secret `secret`, taken byte for byte. Errors
  /// (InvalidArgument): empty, shorter than kMinSecretBytes, or a PEM block (a public key is
  /// loaded with FromPublicKeyPem: as an HMAC secret it would be public).
  static Result<std::unique_ptr<JwtVerifier>> FromSecret(std::string secret);

  /// RS256/384/512 or ES256/384/512 with a PEM public key: "-----BEGIN PUBLIC KEY-----"
  /// (SubjectPublicKeyInfo, as `openssl pkey -pubout` writes it), or for RSA also PKCS#1's
  /// "-----BEGIN RSA PUBLIC KEY-----" (OpenSSL 3 reads both where libjwt asks for a public key).
  /// Errors (InvalidArgument): no such block (a private key), an RSA key under kMinRsaBits, an
  /// EC curve other than P-256/384/521, another key type (Ed25519: libjwt 1.10 has no EdDSA).
  static Result<std::unique_ptr<JwtVerifier>> FromPublicKeyPem(std::string pem);

  /// FromSecret of the bytes of file `path` (--jwt-secret-file), without one trailing "\n".
  /// FromPublicKeyPem of the file `path` (--jwt-public-key-file). Errors name the file, never
  /// its contents: NotFound, IOError, ResourceExhausted (over kMaxKeyFileBytes),
  /// InvalidArgument (empty, or refused as above).
  static Result<std::unique_ptr<JwtVerifier>> FromSecretFile(const std::string& path);
  static Result<std::unique_ptr<JwtVerifier>> FromPublicKeyFile(const std::string& path);

  JwtVerifier(const JwtVerifier&) = delete;
  JwtVerifier& operator=(const JwtVerifier&) = delete;
  ~JwtVerifier();

  /// Checks `token`'s shape, algorithm, signature and claims, expiry and "nbf" at `now_s`
  /// (seconds since the Unix epoch), and returns its claims. Errors, all InvalidArgument with a
  /// short message that never quotes the token or the key: over kMaxTokenBytes, malformed,
  /// algorithm not allowed for this key, bad signature, expired ("token expired at <RFC 3339
  /// time>"), not yet valid, and the claim errors of ParseClaims.
  Result<Claims> Verify(std::string_view token, int64_t now_s) const;

  /// The algorithms this verifier accepts, for logs: "HS256, HS384, HS512".
  std::string AllowedAlgorithms() const;

 private:
  JwtVerifier(std::string key, uint32_t allowed_algorithms);

  /// The error for a token that libjwt refused with this key: malformed, algorithm not
  /// allowed, or bad signature.
  Status DiagnoseRefusal(const std::string& token) const;
  /// OK when libjwt's algorithm `alg` (a jwt_alg_t) is in allowed_algorithms_.
  Status CheckAlgorithm(int alg) const;

  std::string
      key_;  // the secret or the PEM text, given to libjwt by every Verify; wiped at the end
  const uint32_t allowed_algorithms_;  // bit n set: jwt_alg_t n is allowed
};

}  // namespace higgins::auth
