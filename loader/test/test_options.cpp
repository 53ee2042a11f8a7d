// test_options.cpp
//    The command line (options.hpp).
#include <gtest/gtest.h>

#include <vector>

#include "options.hpp"

using namespace ndd_load;

namespace {

bool parse(std::vector<std::string> args, Options& opts, std::string& error) {
    args.insert(args.begin(), "ndd-load");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    opts = Options();
    return parse_options(static_cast<int>(args.size()), argv.data(), opts, error);
}

}  // namespace

TEST(Options, PsqlConnectionOptionsAndLimits) {
    Options o;
    std::string e;
    ASSERT_TRUE(parse({"-t", "s.docs", "-d", "db", "-h", "/tmp", "-p", "5433", "-U", "me", "-j", "4", "--timeout=5",
                       "--memory", "128", "--max-size", "2", "--max-depth", "0", "--batch-rows", "10", "a", "-"},
                      o, e))
        << e;
    EXPECT_EQ(o.table, "s.docs");
    EXPECT_EQ(o.dbname, "db");
    EXPECT_EQ(o.host, "/tmp");
    EXPECT_EQ(o.port, "5433");
    EXPECT_EQ(o.username, "me");
    EXPECT_EQ(o.jobs, 4);
    EXPECT_EQ(o.worker.timeout_s, 5);
    EXPECT_EQ(o.worker.memory_bytes, size_t(128) << 20);
    EXPECT_EQ(o.extract.max_size, size_t(2) << 20);
    EXPECT_EQ(o.extract.max_depth, 0);
    EXPECT_EQ(o.batch_rows, 10);
    EXPECT_EQ(o.paths, (std::vector<std::string>{"a", "-"}));
    EXPECT_FALSE(o.retry_errors);
    ASSERT_TRUE(parse({"-t", "docs", "--retry-errors", "a"}, o, e)) << e;
    EXPECT_TRUE(o.retry_errors);
}

TEST(Options, MistakesAreRefused) {
    Options o;
    std::string e;
    EXPECT_FALSE(parse({"a"}, o, e));
    EXPECT_NE(e.find("--table"), std::string::npos);
    EXPECT_FALSE(parse({"-t", "x"}, o, e));
    EXPECT_NE(e.find("no input"), std::string::npos);
    for (auto bad : {std::vector<std::string>{"-t", "x", "-j", "0", "a"}, {"-t", "x", "-j", "z", "a"},
                     {"-t", "x", "--memory", "10", "a"}, {"-t", "x", "--max-size", "401", "a"},
                     {"-t", "x", "--timeout", "-1", "a"}, {"-t", "x", "--bogus", "a"}, {"-t"}}) {
        EXPECT_FALSE(parse(bad, o, e)) << bad[2];
        EXPECT_FALSE(e.empty());
    }
}

TEST(Options, HelpAndVersion) {
    Options o;
    std::string e;
    ASSERT_TRUE(parse({"--help"}, o, e));
    EXPECT_TRUE(o.help);
    ASSERT_TRUE(parse({"-?"}, o, e));
    EXPECT_TRUE(o.help);
    ASSERT_TRUE(parse({"-V"}, o, e));
    EXPECT_TRUE(o.version);
    EXPECT_NE(std::string(usage_text()).find("--table=NAME"), std::string::npos);
}
