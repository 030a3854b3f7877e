// The s3 storage over an in-memory object store: upload, release, restart, outages, limits.
// The real S3 server is exercised in tests/s3 (a broker on loopback against s3rver).
#include "storage/s3_storage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "higgins/arrow/ipc/reader.h"
#include "s3/testing/memory_object_store.h"
#include "storage/segment_object.h"
#include "storage/storage_test_util.h"

namespace higgins::storage {
namespace {

using testing::RecordBatchOf;
using testing::RecordSchema;
using testing::TempDir;

S3StorageOptions SmallSegments() {
  S3StorageOptions o;
  o.name = "objects";
  o.prefix = "data";
  o.segment_bytes = 4096;  // a few entries of 10 x 100 bytes each
  o.segment_max_age = std::chrono::hours(1);
  o.retry_base = std::chrono::milliseconds(1);
  o.retry_max = std::chrono::milliseconds(5);
  return o;
}

template <typename F>
bool WaitFor(F condition, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return condition();
}

int64_t FirstSeq(const arrow::RecordBatch& batch) {
  return batch.column(0).Value<int64_t>(0);
}

class S3StorageTest : public ::testing::Test {
 protected:
  std::unique_ptr<Storage> Make(S3StorageOptions options = SmallSegments()) {
    auto storage = MakeS3Storage(dir_.path() + "/wal", store_, options);
    EXPECT_TRUE(storage.ok()) << storage.status().ToString();
    return storage.ok() ? *std::move(storage) : nullptr;
  }

  std::vector<EntryInfo> AppendEntries(BucketLog& log, int count, int64_t first_seq = 0) {
    std::vector<EntryInfo> entries;
    for (int i = 0; i < count; ++i) {
      auto entry = log.Append(RecordBatchOf(10, first_seq + 10 * i), 1000 + i);
      EXPECT_TRUE(entry.ok()) << entry.status().ToString();
      entries.push_back(*entry);
    }
    EXPECT_TRUE(log.Sync().ok());
    return entries;
  }

  /// Segment objects under the prefix (not the owner marker).
  size_t ObjectCount() {
    auto listed = store_->List("data/");
    if (!listed.ok()) return 0;
    return static_cast<size_t>(std::count_if(
        listed->begin(), listed->end(), [](const auto& o) { return o.key.ends_with(".arrow"); }));
  }

  void ReopenAfterSealingWithoutUploading(S3StorageOptions options, int count, size_t objects);

  TempDir dir_;
  std::shared_ptr<s3::MemoryObjectStore> store_ = std::make_shared<s3::MemoryObjectStore>();
};

TEST_F(S3StorageTest, SealedSegmentsAreUploadedAsArrowFilesAndReadBackFromTheStore) {
  auto storage = Make();
  auto log = storage->OpenBucket(StreamId(7), BucketId(2), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  const auto entries = AppendEntries(**log, 20);
  ASSERT_TRUE(WaitFor([&] { return GetS3StorageStats(*storage).uploaded_objects >= 3; }));
  auto listed = store_->List("data/7/2/");
  ASSERT_TRUE(listed.ok());
  ASSERT_GE(listed->size(), 3u);
  EXPECT_EQ((*listed)[0].key, "data/7/2/00000000000000000000.arrow");
  // Each object is a plain Arrow IPC file with the stream's fields.
  auto bytes = store_->Get((*listed)[0].key, 0, (*listed)[0].size);
  ASSERT_TRUE(bytes.ok());
  auto file = arrow::ipc::ReadFile(*bytes);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ(file->schema->fields(), RecordSchema()->fields());
  ASSERT_FALSE(file->batches.empty());
  EXPECT_EQ(FirstSeq(file->batches[0]), 0);
  // Every entry reads back with its rows, whichever side holds it now.
  for (const EntryInfo& entry : entries) {
    auto batch = (*log)->Read(entry.location);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_EQ(FirstSeq(*batch), static_cast<int64_t>(entry.base_sequence.value()));
  }
  // A second read of an uploaded entry comes from the cache.
  const uint64_t gets = store_->gets();
  ASSERT_TRUE((*log)->Read(entries[0].location).ok());
  EXPECT_EQ(store_->gets(), gets);
  EXPECT_GE(GetS3StorageStats(*storage).cache_hits, 1u);
}

TEST_F(S3StorageTest, UploadedSegmentsLeaveTheLocalLog) {
  auto storage = Make();
  auto log = storage->OpenBucket(StreamId(1), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok());
  AppendEntries(**log, 20);
  ASSERT_TRUE(WaitFor([&] { return GetS3StorageStats(*storage).uploaded_objects >= 3; }));
  ASSERT_TRUE(WaitFor([&] {
    return testing::ListFiles(dir_.path() + "/wal/1/0").size() == 1;  // only the open segment
  }));
  // The count drops just after the file goes: wait for it too. What stays is the open segment.
  ASSERT_TRUE(
      WaitFor([&] { return GetS3StorageStats(*storage).pending_local_bytes < 4096u + 2048u; }));
  EXPECT_GT(GetS3StorageStats(*storage).pending_local_bytes, 0u);
}

TEST_F(S3StorageTest, ARestartRebuildsEntriesFromObjectsAndTheLocalLog) {
  std::vector<EntryInfo> entries;
  {
    auto storage = Make();
    auto log = storage->OpenBucket(StreamId(3), BucketId(0), RecordSchema(), Sequence(0));
    ASSERT_TRUE(log.ok());
    entries = AppendEntries(**log, 25);
    ASSERT_TRUE(WaitFor([&] { return GetS3StorageStats(*storage).uploaded_objects >= 3; }));
  }
  auto storage = Make();
  auto log = storage->OpenBucket(StreamId(3), BucketId(0), RecordSchema(), Sequence(250));
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  EXPECT_EQ((*log)->next_sequence(), Sequence(250));
  for (const EntryInfo& entry : entries) {
    auto batch = (*log)->Read(entry.location);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_EQ(FirstSeq(*batch), static_cast<int64_t>(entry.base_sequence.value()));
  }
  std::vector<EntryInfo> scanned;
  ASSERT_TRUE((*log)
                  ->Scan(Sequence(0),
                         [&](const EntryInfo& info, const arrow::RecordBatch& batch) {
                           EXPECT_EQ(FirstSeq(batch),
                                     static_cast<int64_t>(info.base_sequence.value()));
                           scanned.push_back(info);
                           return Status::OK();
                         })
                  .ok());
  ASSERT_EQ(scanned.size(), entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(scanned[i].base_sequence, entries[i].base_sequence);
    EXPECT_EQ(scanned[i].timestamp_ms, entries[i].timestamp_ms);
    EXPECT_EQ(scanned[i].location, entries[i].location);
  }
  // Appending continues after the recovered rows.
  auto more = (*log)->Append(RecordBatchOf(10, 250), 5000);
  ASSERT_TRUE(more.ok());
  EXPECT_EQ(more->base_sequence, Sequence(250));
}

TEST_F(S3StorageTest, AnUnreachableStoreKeepsAppendsLocalUntilTheLimit) {
  S3StorageOptions options = SmallSegments();
  options.local_limit_bytes = 20000;
  auto storage = Make(options);
  auto log = storage->OpenBucket(StreamId(4), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok());
  store_->set_failing(true);
  int appended = 0;
  while (storage->CheckAppend().ok() && appended < 1000) {
    ASSERT_TRUE((*log)->Append(RecordBatchOf(10, 10 * appended), 1).ok());
    ASSERT_TRUE((*log)->Sync().ok());
    ++appended;
  }
  ASSERT_LT(appended, 1000);
  const Status refused = storage->CheckAppend();
  EXPECT_EQ(refused.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(refused.message().find("local_limit_bytes = 20000"), std::string::npos)
      << refused.message();
  EXPECT_EQ(ObjectCount(), 0u);
  store_->set_failing(false);
  ASSERT_TRUE(WaitFor([&] { return storage->CheckAppend().ok(); }));
  ASSERT_TRUE(WaitFor([&] { return ObjectCount() >= 3; }));
  std::vector<int64_t> firsts;
  ASSERT_TRUE((*log)
                  ->Scan(Sequence(0),
                         [&](const EntryInfo&, const arrow::RecordBatch& batch) {
                           firsts.push_back(FirstSeq(batch));
                           return Status::OK();
                         })
                  .ok());
  ASSERT_EQ(firsts.size(), static_cast<size_t>(appended));
  for (int i = 0; i < appended; ++i) EXPECT_EQ(firsts[i], 10 * i);
}

TEST_F(S3StorageTest, ReadsOfUploadedDataFailClearlyWhileTheStoreIsDownAndWorkAfter) {
  S3StorageOptions options = SmallSegments();
  options.read_cache_bytes = 0;
  auto storage = Make(options);
  auto log = storage->OpenBucket(StreamId(5), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok());
  const auto entries = AppendEntries(**log, 20);
  ASSERT_TRUE(WaitFor([&] { return testing::ListFiles(dir_.path() + "/wal/5/0").size() == 1; }));
  store_->set_failing(true);
  auto failed = (*log)->Read(entries[0].location);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kIOError);
  EXPECT_NE(failed.status().message().find("storage 'objects': reading sequence 0 of stream id 5"),
            std::string::npos)
      << failed.status().message();
  // The entries still in the local log read fine.
  EXPECT_TRUE((*log)->Read(entries.back().location).ok());
  store_->set_failing(false);
  EXPECT_TRUE((*log)->Read(entries[0].location).ok());
}

TEST_F(S3StorageTest, AckAfterUploadSyncsOnlyOnceTheObjectExists) {
  S3StorageOptions options = SmallSegments();
  options.ack_after_upload = true;
  auto storage = Make(options);
  auto log = storage->OpenBucket(StreamId(6), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok());
  ASSERT_TRUE((*log)->Append(RecordBatchOf(3), 1).ok());
  ASSERT_TRUE((*log)->Sync().ok());
  EXPECT_EQ(ObjectCount(), 1u);
  store_->set_failing(true);
  ASSERT_TRUE((*log)->Append(RecordBatchOf(3, 3), 2).ok());
  const Status pending = (*log)->Sync();
  EXPECT_TRUE(IsUploadPending(pending)) << pending.ToString();
  store_->set_failing(false);
  ASSERT_TRUE(WaitFor([&] { return ObjectCount() == 2; }));
}

TEST_F(S3StorageTest, ASegmentOlderThanTheMaximumAgeIsUploaded) {
  S3StorageOptions options = SmallSegments();
  options.segment_bytes = 1 << 20;
  options.segment_max_age = std::chrono::milliseconds(50);
  auto storage = Make(options);
  auto log = storage->OpenBucket(StreamId(8), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok());
  AppendEntries(**log, 2);
  EXPECT_TRUE(WaitFor([&] { return ObjectCount() == 1; }));
}

/// Appends `count` entries while the store fails (nothing is uploaded), then drops the storage
/// as a crash would, and reopens it with the store working: every sealed segment, the last one
/// included, must go up without another append (the maximum age is an hour).
void S3StorageTest::ReopenAfterSealingWithoutUploading(S3StorageOptions options, int count,
                                                       size_t objects) {
  {
    auto storage = Make(options);
    auto log = storage->OpenBucket(StreamId(11), BucketId(0), RecordSchema(), Sequence(0));
    ASSERT_TRUE(log.ok());
    store_->set_failing(true);
    AppendEntries(**log, count);
    ASSERT_TRUE(WaitFor([&] { return GetS3StorageStats(*storage).failed_uploads >= 1; }));
  }
  store_->set_failing(false);
  ASSERT_EQ(ObjectCount(), 0u);
  auto storage = Make(options);
  auto log = storage->OpenBucket(StreamId(11), BucketId(0), RecordSchema(),
                                 Sequence(10 * static_cast<uint64_t>(count)));
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  EXPECT_TRUE(WaitFor([&] { return ObjectCount() == objects; }, std::chrono::milliseconds(3000)))
      << ObjectCount() << " objects";
  EXPECT_TRUE(WaitFor([&] { return GetS3StorageStats(*storage).pending_local_bytes == 0; }));
  // Appending goes on in a new segment after the recovered ones.
  auto more = (*log)->Append(RecordBatchOf(10, 10 * count), 5000);
  ASSERT_TRUE(more.ok()) << more.status().ToString();
  EXPECT_EQ(more->base_sequence, Sequence(10u * count));
  EXPECT_EQ(more->location.segment, 10u * count);
}

TEST_F(S3StorageTest, ANewestLocalSegmentSealedBySizeBeforeACrashIsUploadedOnReopen) {
  S3StorageOptions options = SmallSegments();
  options.segment_bytes = 1;  // every entry fills its segment
  ReopenAfterSealingWithoutUploading(options, 3, 3);
}

TEST_F(S3StorageTest, ANewestLocalSegmentSealedByEntryCountBeforeACrashIsUploadedOnReopen) {
  S3StorageOptions options = SmallSegments();
  options.segment_bytes = 1 << 20;
  options.segment_max_entries = 2;
  ReopenAfterSealingWithoutUploading(options, 4, 2);
}

TEST_F(S3StorageTest, ObjectsWithAGapRefuseToOpen) {
  {
    auto storage = Make();
    auto log = storage->OpenBucket(StreamId(9), BucketId(0), RecordSchema(), Sequence(0));
    ASSERT_TRUE(log.ok());
    AppendEntries(**log, 25);
    ASSERT_TRUE(WaitFor([&] { return ObjectCount() >= 3; }));
  }
  auto listed = store_->List("data/9/0/");
  ASSERT_TRUE(listed.ok());
  ASSERT_TRUE(store_->Delete((*listed)[1].key).ok());
  auto storage = Make();
  auto log = storage->OpenBucket(StreamId(9), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_FALSE(log.ok());
  EXPECT_EQ(log.status().code(), StatusCode::kCorruption);
  EXPECT_NE(log.status().message().find("but the objects before it end at"), std::string::npos)
      << log.status().message();
}

TEST_F(S3StorageTest, DropStreamDeletesItsObjectsAndLocalLog) {
  auto storage = Make();
  {
    auto log = storage->OpenBucket(StreamId(10), BucketId(0), RecordSchema(), Sequence(0));
    ASSERT_TRUE(log.ok());
    AppendEntries(**log, 20);
    ASSERT_TRUE(WaitFor([&] { return ObjectCount() >= 3; }));
  }
  ASSERT_TRUE(storage->DropStream(StreamId(10)).ok());
  EXPECT_EQ(ObjectCount(), 0u);
  EXPECT_EQ(testing::ListFiles(dir_.path() + "/wal"),
            std::vector<std::string>{dir_.path() + "/wal/owner-id"});
}

TEST_F(S3StorageTest, APrefixWithDotSegmentsIsRefused) {
  for (const char* prefix : {"..", "../escape/", "a/./b", "a/.."}) {
    S3StorageOptions options = SmallSegments();
    options.prefix = prefix;
    auto storage = MakeS3Storage(dir_.path() + "/wal", store_, options);
    ASSERT_FALSE(storage.ok()) << prefix;
    EXPECT_NE(storage.status().message().find("has a '.' or '..' segment"), std::string::npos)
        << storage.status().message();
  }
  S3StorageOptions dotted = SmallSegments();
  dotted.prefix = "v1.2/..data/";  // dots inside a segment are fine
  EXPECT_TRUE(MakeS3Storage(dir_.path() + "/wal", store_, dotted).ok());
}

TEST_F(S3StorageTest, APrefixWithAnEmptySegmentIsRefusedNamingThePrefix) {
  for (const char* prefix : {"a//b/", "/", "/a", "a//", "//"}) {
    S3StorageOptions options = SmallSegments();
    options.prefix = prefix;
    auto storage = MakeS3Storage(dir_.path() + "/wal", store_, options);
    ASSERT_FALSE(storage.ok()) << prefix;
    EXPECT_EQ(storage.status().code(), StatusCode::kInvalidArgument) << prefix;
    EXPECT_NE(storage.status().message().find("prefix '" + std::string(prefix)), std::string::npos)
        << storage.status().message();
    EXPECT_NE(storage.status().message().find("has an empty segment"), std::string::npos)
        << storage.status().message();
  }
  S3StorageOptions nested = SmallSegments();
  nested.prefix = "a/b";  // a '/' is added: "a/b/"
  EXPECT_TRUE(MakeS3Storage(dir_.path() + "/wal", store_, nested).ok());
}

TEST_F(S3StorageTest, APrefixClaimedByAnotherBrokersDirIsRefused) {
  ASSERT_NE(Make(), nullptr);
  TempDir other;
  auto second = MakeS3Storage(other.path() + "/wal", store_, SmallSegments());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(second.status().message().find("prefix 'data/' belongs to another broker"),
            std::string::npos)
      << second.status().message();
  // The same --dir again, and another prefix, are fine.
  EXPECT_NE(Make(), nullptr);
  S3StorageOptions elsewhere = SmallSegments();
  elsewhere.prefix = "other/";
  EXPECT_TRUE(MakeS3Storage(other.path() + "/wal", store_, elsewhere).ok());
}

/// The multipart uploads in progress under `prefix`.
std::vector<s3::MultipartUpload> InProgress(s3::ObjectStore& store, const std::string& prefix) {
  auto uploads = store.ListMultipartUploads(prefix);
  EXPECT_TRUE(uploads.ok()) << uploads.status().ToString();
  return uploads.ok() ? *uploads : std::vector<s3::MultipartUpload>{};
}

TEST_F(S3StorageTest, AMultipartUploadCutOffByACrashIsAbortedWhenTheStorageReopens) {
  store_->set_multipart_threshold(2048, 1024);  // every segment object goes up in parts
  store_->DieDuringNextMultipartPut(2);
  std::vector<EntryInfo> entries;
  {
    auto storage = Make();
    auto log = storage->OpenBucket(StreamId(5), BucketId(1), RecordSchema(), Sequence(0));
    ASSERT_TRUE(log.ok());
    entries = AppendEntries(**log, 20);
    // The first segment's upload dies after two parts; nothing reaches the store after that.
    ASSERT_TRUE(WaitFor([&] { return GetS3StorageStats(*storage).failed_uploads >= 1; }));
  }  // the "process" is gone: storage destroyed without completing or aborting its upload
  store_->set_failing(false);
  const auto stale = InProgress(*store_, "data/");
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].key, "data/5/1/00000000000000000000.arrow");
  EXPECT_EQ(store_->in_progress_part_bytes(), 2048u);
  EXPECT_EQ(ObjectCount(), 0u);

  auto storage = Make();
  ASSERT_NE(storage, nullptr);
  // Aborted during the open, before anything is uploaded again.
  EXPECT_TRUE(InProgress(*store_, "data/").empty());
  EXPECT_EQ(store_->aborted_uploads(), 1u);
  EXPECT_EQ(store_->in_progress_part_bytes(), 0u);
  EXPECT_EQ(ObjectCount(), 0u);
  // Every acknowledged entry is then uploaded under new uploads and reads back.
  auto log = storage->OpenBucket(StreamId(5), BucketId(1), RecordSchema(), Sequence(200));
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  ASSERT_TRUE(WaitFor([&] { return ObjectCount() >= 3; }));
  EXPECT_TRUE(InProgress(*store_, "data/").empty());
  for (const EntryInfo& entry : entries) {
    auto batch = (*log)->Read(entry.location);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_EQ(FirstSeq(*batch), static_cast<int64_t>(entry.base_sequence.value()));
  }
}

TEST_F(S3StorageTest, StaleUploadsOfOtherPrefixesAreLeftAlone) {
  const std::string ours =
      store_->StartAbandonedUpload("data/1/0/00000000000000000000.arrow", 2, 8);
  const std::string twice =
      store_->StartAbandonedUpload("data/1/0/00000000000000000000.arrow", 1, 8);
  store_->StartAbandonedUpload("database/1/0/00000000000000000000.arrow", 1, 8);
  store_->StartAbandonedUpload("dat/1/0/00000000000000000000.arrow", 1, 8);
  store_->StartAbandonedUpload("other/data/1/0/00000000000000000000.arrow", 1, 8);
  ASSERT_NE(ours, twice);
  ASSERT_NE(Make(), nullptr);
  EXPECT_TRUE(InProgress(*store_, "data/").empty());
  EXPECT_EQ(store_->aborted_uploads(), 2u);
  const auto left = InProgress(*store_, "");
  ASSERT_EQ(left.size(), 3u);
  EXPECT_EQ(left[0].key, "dat/1/0/00000000000000000000.arrow");
  EXPECT_EQ(left[1].key, "database/1/0/00000000000000000000.arrow");
  EXPECT_EQ(left[2].key, "other/data/1/0/00000000000000000000.arrow");
}

TEST_F(S3StorageTest, ThousandsOfStaleUploadsAreAllAborted) {
  // More than S3 lists in one page (1000): the store's listing returns all of them.
  for (int i = 0; i < 2500; ++i) {
    store_->StartAbandonedUpload("data/" + std::to_string(i % 7) + "/0/" + std::to_string(i), 1, 1);
  }
  ASSERT_NE(Make(), nullptr);
  EXPECT_EQ(store_->aborted_uploads(), 2500u);
  EXPECT_TRUE(InProgress(*store_, "").empty());
}

TEST_F(S3StorageTest, AStoreWithoutTheUploadListingStillOpens) {
  store_->StartAbandonedUpload("data/1/0/00000000000000000000.arrow", 1, 8);
  store_->set_list_uploads_status(Status::NotSupported(
      "s3 LIST UPLOADS data/: HTTP 501 NotImplemented (the server does not implement "
      "ListMultipartUploads)"));
  auto storage = Make();
  ASSERT_NE(storage, nullptr);
  EXPECT_EQ(store_->aborted_uploads(), 0u);
  auto log = storage->OpenBucket(StreamId(1), BucketId(0), RecordSchema(), Sequence(0));
  ASSERT_TRUE(log.ok());
  AppendEntries(**log, 20);
  EXPECT_TRUE(WaitFor([&] { return ObjectCount() >= 3; }));
}

TEST_F(S3StorageTest, AnUploadListingThatFailsOtherwiseFailsTheOpen) {
  store_->StartAbandonedUpload("data/1/0/00000000000000000000.arrow", 1, 8);
  for (const Status& refusal :
       {Status::InvalidArgument("s3 LIST UPLOADS data/: HTTP 403 AccessDenied: Access Denied"),
        Status::IOError("s3 LIST UPLOADS data/: HTTP 503 SlowDown after 5 attempts"),
        Status::Corruption("s3 LIST UPLOADS data/: xml: not a ListMultipartUploadsResult")}) {
    store_->set_list_uploads_status(refusal);
    auto storage = MakeS3Storage(dir_.path() + "/wal", store_, SmallSegments());
    ASSERT_FALSE(storage.ok()) << refusal.ToString();
    EXPECT_EQ(storage.status().code(), refusal.code());
    EXPECT_NE(storage.status().message().find(
                  "storage 'objects': aborting the multipart uploads a crash left failed: " +
                  refusal.message()),
              std::string::npos)
        << storage.status().message();
  }
}

TEST_F(S3StorageTest, AStorageRefusedByTheClaimAbortsNothing) {
  ASSERT_NE(Make(), nullptr);
  const std::string live =
      store_->StartAbandonedUpload("data/1/0/00000000000000000000.arrow", 1, 8);
  TempDir other;
  ASSERT_FALSE(MakeS3Storage(other.path() + "/wal", store_, SmallSegments()).ok());
  const auto left = InProgress(*store_, "data/");
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].upload_id, live);
}

TEST(SegmentObjectTest, FooterRoundTripsAndRefusesAnotherPlace) {
  std::vector<SealedEntry> entries = {{Sequence(5), 100, RecordBatchOf(3, 5)},
                                      {Sequence(8), 200, RecordBatchOf(2, 8)}};
  auto object = EncodeSegmentObject(RecordSchema(), StreamId(1), BucketId(2), Sequence(5), entries);
  ASSERT_TRUE(object.ok());
  const auto bytes = object->span();
  auto length = DecodeObjectTrailer(bytes.last(kObjectTrailerSize), bytes.size());
  ASSERT_TRUE(length.ok());
  const auto footer = bytes.subspan(bytes.size() - kObjectTrailerSize - *length, *length);
  auto info = DecodeSegmentObjectFooter(footer, *RecordSchema(), StreamId(1), BucketId(2),
                                        Sequence(5), bytes.size());
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  ASSERT_EQ(info->entries.size(), 2u);
  EXPECT_EQ(info->entries[1].base_sequence, Sequence(8));
  EXPECT_EQ(info->entries[1].row_count, 2u);
  EXPECT_EQ(info->entries[1].timestamp_ms, 200);
  EXPECT_EQ(info->end_sequence(), Sequence(10));
  auto elsewhere = DecodeSegmentObjectFooter(footer, *RecordSchema(), StreamId(1), BucketId(3),
                                             Sequence(5), bytes.size());
  EXPECT_EQ(elsewhere.status().code(), StatusCode::kCorruption);
  auto truncated = DecodeObjectTrailer(bytes.first(kObjectTrailerSize), bytes.size());
  EXPECT_EQ(truncated.status().code(), StatusCode::kCorruption);
  std::vector<SealedEntry> gap = {{Sequence(5), 1, RecordBatchOf(3, 5)},
                                  {Sequence(9), 2, RecordBatchOf(2, 9)}};
  EXPECT_EQ(EncodeSegmentObject(RecordSchema(), StreamId(1), BucketId(2), Sequence(5), gap)
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(SegmentObjectTest, AFooterWrittenByApacheArrowJsDecodes) {
  // fuzz/corpus/storage/segment_object_footer: the footer of an Arrow IPC file that apache-arrow
  // (JS) wrote with the higgins.* schema metadata of one entry of 3 rows.
  const std::vector<uint8_t> footer = testing::ReadFileBytes(
      std::string(HIGGINS_SOURCE_DIR) + "/fuzz/corpus/storage/segment_object_footer");
  const auto schema =
      arrow::MakeSchema({{"id", arrow::DataType::Utf8()}, {"seq", arrow::DataType::Int64()}});
  auto info =
      DecodeSegmentObjectFooter(footer, *schema, StreamId(1), BucketId(0), Sequence(0), 1 << 20);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  ASSERT_EQ(info->entries.size(), 1u);
  EXPECT_EQ(info->entries[0].row_count, 3u);
  EXPECT_EQ(info->entries[0].timestamp_ms, 1700000000000);
  EXPECT_EQ(info->end_sequence(), Sequence(3));
}

}  // namespace
}  // namespace higgins::storage
