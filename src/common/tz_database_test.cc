#include "common/tz_database.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace higgins {
namespace {

// A tz database of two zones, one of them in a subfolder, and a file that is not a zone.
class TzDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/tz_database_test.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    ASSERT_EQ(::mkdir((dir_ + "/Europe").c_str(), 0755), 0);
    Write("UTC", std::string("TZif2\0\0\0", 8));
    Write("Europe/Paris", std::string("TZif3\0\0\0", 8));
    Write("zone.tab", "# tz zone descriptions\n");
  }
  void TearDown() override {
    for (const char* file : {"UTC", "Europe/Paris", "zone.tab"}) {
      ::unlink((dir_ + "/" + file).c_str());
    }
    ::rmdir((dir_ + "/Europe").c_str());
    ::rmdir(dir_.c_str());
  }
  void Write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ + "/" + name, std::ios::binary) << bytes;
  }
  std::string dir_;
};

TEST_F(TzDatabaseTest, ZonesAreTzifFiles) {
  EXPECT_EQ(IsTzZone("UTC", dir_), true);
  EXPECT_EQ(IsTzZone("Europe/Paris", dir_), true);
}

TEST_F(TzDatabaseTest, UnknownNamesFoldersAndOtherFilesAreNotZones) {
  EXPECT_EQ(IsTzZone("Not/AZone", dir_), false);
  EXPECT_EQ(IsTzZone("Europe", dir_), false);    // a folder
  EXPECT_EQ(IsTzZone("zone.tab", dir_), false);  // no TZif magic
}

TEST_F(TzDatabaseTest, NamesLeavingTheFolderAreNotZones) {
  EXPECT_EQ(IsTzZone("", dir_), false);
  EXPECT_EQ(IsTzZone("/UTC", dir_), false);
  EXPECT_EQ(IsTzZone("Europe/../UTC", dir_), false);
  EXPECT_EQ(IsTzZone("./UTC", dir_), false);
  EXPECT_EQ(IsTzZone("Europe//Paris", dir_), false);
}

TEST(TzDatabaseMissingTest, NoFolderIsNoDatabase) {
  EXPECT_EQ(IsTzZone("UTC", "/nonexistent/zoneinfo"), std::nullopt);
}

TEST(TzDatabaseDirTest, TzdirWinsOverTheDebianFolder) {
  ::setenv("TZDIR", "/opt/zoneinfo", 1);
  EXPECT_EQ(TzDatabaseDir(), "/opt/zoneinfo");
  ::setenv("TZDIR", "", 1);
  EXPECT_EQ(TzDatabaseDir(), "/usr/share/zoneinfo");
  ::unsetenv("TZDIR");
  EXPECT_EQ(TzDatabaseDir(), "/usr/share/zoneinfo");
}

}  // namespace
}  // namespace higgins
