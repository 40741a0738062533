// The page and its JSON API (daemon/web_api.h): each endpoint's answers and every refusal with
// its exact message, on a WebApi served by an HttpServer on loopback in this process; then a
// real sudokud started with --http, whose refusals of bad puzzles must read as sudoku-client's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <utility>  // before Asio: its awaitable.hpp needs std::exchange (asio issue 944)

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <future>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include "daemon/admission.h"
#include "daemon/http_server.h"
#include "daemon/metrics.h"
#include "daemon/pool.h"
#include "daemon/request_handler.h"
#include "daemon/web_api.h"
#include "daemon/web_assets.h"
#include "solver/explain_text.h"
#include "solver/logic.h"
#include "solver/rating.h"
#include "solver/solver.h"
#include "tests/daemon/http_client.h"
#include "tests/daemon/wire_client.h"
#include "tests/support/puzzles.h"
#include "tests/support/technique_names.h"
#include "tests/support/paths.h"

namespace sudoku::daemon {
namespace {

using ::sudoku::testing::kCandidateGrid;
using ::sudoku::testing::kWikipediaPuzzle;
using ::sudoku::testing::kWikipediaSolution;
using ::sudoku::testing::kUnsolvable;
using ::sudoku::testing::HttpRequest;
using ::sudoku::testing::Pencilmarks;

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;
using Json = nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// The same puzzle as people paste it.
constexpr char kPastedGrid[] =
    "+-------+-------+-------+\n"
    "| 5 3 . | . 7 . | . . . |\n"
    "| 6 . . | 1 9 5 | . . . |\n"
    "| . 9 8 | . . . | . 6 . |\n"
    "+-------+-------+-------+\n"
    "| 8 . . | . 6 . | . . 3 |\n"
    "| 4 . . | 8 . 3 | . . 1 |\n"
    "| 7 . . | . 2 . | . . 6 |\n"
    "+-------+-------+-------+\n"
    "| . 6 . | . . . | 2 8 . |\n"
    "| . . . | 4 1 9 | . . 5 |\n"
    "| . . . | . 8 . | . 7 9 |\n"
    "+-------+-------+-------+\n";
const std::string kEmpty(81, '.');

struct Reply {
  unsigned status = 0;
  std::string body;
  std::string content_type;
  std::string allow;
  std::string retry_after;
  std::string content_length;
  std::string csp;
  Json json() const { return Json::parse(body); }
};

// One request on a fresh connection.
Reply Send(uint16_t port, http::verb method, const std::string& target, const std::string& body,
           const std::string& content_type = "application/json") {
  const auto response = HttpRequest(port, method, target, body, content_type);
  Reply reply;
  reply.status = response.result_int();
  reply.body = response.body();
  reply.content_type = std::string(response[http::field::content_type]);
  reply.allow = std::string(response[http::field::allow]);
  reply.retry_after = std::string(response[http::field::retry_after]);
  reply.content_length = std::string(response[http::field::content_length]);
  reply.csp = std::string(response["Content-Security-Policy"]);
  return reply;
}

Reply Post(uint16_t port, const std::string& target, const Json& body) {
  return Send(port, http::verb::post, target, body.dump());
}

// A WebApi on an HttpServer on 127.0.0.1, run as the daemon runs them: the listener on a thread
// of its own, the WebApi's state and the RequestHandler on the event loop's.
class WebServer {
 public:
  // The daemon's budgets: --max-in-flight `max_in_flight`, --max-memory `max_memory`.
  explicit WebServer(const WebApiOptions& options = {}, size_t max_in_flight = 65536,
                     size_t max_memory = size_t{1} << 30)
      : pool_(1),
        admission_(max_in_flight, max_memory),
        requests_(pool_, admission_, stats_, jobs_, /*max_batch=*/65536,
                  [this] { return MetricsSnapshot{.stats = stats_}; }),
        metrics_([] { return std::string("sudokud_up 1\n"); }),
        api_(requests_, &metrics_, options, loop_.get_executor()),
        server_(listener_, "http", WebApi::Limits(), &api_) {
    port_ = server_.Listen(tcp::endpoint(asio::ip::address_v4::loopback(), 0)).port();
    server_.Start();
    loop_thread_ = std::thread([this] { loop_.run(); });
    listener_thread_ = std::thread([this] { listener_.run(); });
  }
  ~WebServer() {
    asio::post(listener_, [this] { server_.Stop(); });
    listener_thread_.join();
    loop_work_.reset();
    loop_thread_.join();
  }

  uint16_t port() const { return port_; }
  Pool& pool() { return pool_; }
  Admission& admission() { return admission_; }
  // The event loop's.
  asio::io_context& io() { return loop_; }

  // Runs `f` on the event loop's thread and returns its value.
  template <typename F>
  auto OnServer(F f) {
    std::packaged_task<decltype(f())()> task(std::move(f));
    auto result = task.get_future();
    asio::post(loop_, [&task] { task(); });
    return result.get();
  }
  size_t InFlight() {
    return OnServer([this] { return api_.in_flight(); });
  }
  // The daemon's counts, read on the event loop's thread.
  ServerStats Stats() {
    return OnServer([this] { return stats_; });
  }
  void StopApi() {
    OnServer([this] {
      api_.Stop();
      return 0;
    });
  }
  // Blocks the event loop until the returned promise is set (as a handler that takes too long
  // would).
  std::shared_ptr<std::promise<void>> BlockLoop() {
    auto release = std::make_shared<std::promise<void>>();
    asio::post(loop_, [wait = release->get_future().share()] { wait.wait(); });
    return release;
  }

 private:
  asio::io_context loop_;
  asio::executor_work_guard<asio::io_context::executor_type> loop_work_ =
      asio::make_work_guard(loop_);
  asio::io_context listener_;
  Pool pool_;
  Admission admission_;
  ServerStats stats_;
  JobPool jobs_;
  RequestHandler requests_;
  MetricsRoutes metrics_;
  WebApi api_;
  HttpServer server_;
  uint16_t port_ = 0;
  std::thread loop_thread_;
  std::thread listener_thread_;
};

Grid GridOf(const std::string& puzzle) {
  Grid grid{};
  EXPECT_FALSE(ParsePuzzle(puzzle, &grid));
  return grid;
}

// ---- The page ----

TEST(WebPage, ServesTheEmbeddedFiles) {
  WebServer server;
  const Reply page = Send(server.port(), http::verb::get, "/", "", "");
  EXPECT_EQ(page.status, 200u);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  EXPECT_THAT(page.body, HasSubstr("<title>sudokud"));
  EXPECT_THAT(page.body, HasSubstr("<script type=\"module\" src=\"main.js\"></script>"));
  EXPECT_THAT(page.csp, StartsWith("default-src 'self'"));
  // A module is run only when it comes as JavaScript.
  const Reply script = Send(server.port(), http::verb::get, "/main.js", "", "");
  EXPECT_EQ(script.status, 200u);
  EXPECT_EQ(script.content_type, "text/javascript; charset=utf-8");
  EXPECT_THAT(script.body, HasSubstr("import "));
  EXPECT_THAT(script.csp, StartsWith("default-src 'self'"));
  const Reply api = Send(server.port(), http::verb::get, "/api.js", "", "");
  EXPECT_EQ(api.status, 200u);
  EXPECT_EQ(api.content_type, "text/javascript; charset=utf-8");
  EXPECT_THAT(api.body, HasSubstr("fetch("));
  const Reply style = Send(server.port(), http::verb::get, "/style.css?v=2", "", "");
  EXPECT_EQ(style.status, 200u);
  EXPECT_EQ(style.content_type, "text/css; charset=utf-8");
  // The files are byte for byte those of daemon/web/.
  std::ifstream file(testing::TestPath("SUDOKU_WEB_DIR") + "/main.js", std::ios::binary);
  EXPECT_EQ(script.body, std::string(std::istreambuf_iterator<char>(file), {}));
}

// The page's files in daemon/web/: its HTML, CSS and JavaScript modules.
std::set<std::string> PageFiles() {
  std::set<std::string> names;
  const std::string directory = testing::TestPath("SUDOKU_WEB_DIR");
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    const std::string extension = entry.path().extension().string();
    if (extension == ".html" || extension == ".css" || extension == ".js") {
      names.insert(entry.path().filename().string());
    }
  }
  return names;
}

// Every module the page runs is built in (daemon/CMakeLists.txt's SUDOKU_WEB_FILES): those of
// daemon/web/, each served as JavaScript, and every one main.js or another imports, and the
// page preloads, is among them.
TEST(WebPage, EmbedsEveryFileOfThePage) {
  std::set<std::string> embedded;
  for (const WebAsset& asset : WebAssets()) embedded.insert(std::string(asset.name));
  EXPECT_EQ(embedded, PageFiles());
  WebServer server;
  std::set<std::string> modules;
  for (const std::string& name : embedded) {
    if (!name.ends_with(".js")) continue;
    modules.insert(name);
    const Reply reply = Send(server.port(), http::verb::get, "/" + name, "", "");
    EXPECT_EQ(reply.status, 200u) << name;
    EXPECT_EQ(reply.content_type, "text/javascript; charset=utf-8") << name;
    const std::regex import("from '\\./([a-z-]+\\.js)';");
    for (std::sregex_iterator it(reply.body.begin(), reply.body.end(), import), end; it != end;
         ++it) {
      EXPECT_TRUE(embedded.contains((*it)[1].str())) << name << " imports " << (*it)[1].str();
    }
  }
  EXPECT_GE(modules.size(), 2u);
  // index.html runs main.js and preloads the others, so that they come at once.
  const std::string page = Send(server.port(), http::verb::get, "/", "", "").body;
  std::set<std::string> named;
  const std::regex reference(
      "(?:<script type=\"module\" src|<link rel=\"modulepreload\" href)=\"([a-z-]+\\.js)\"");
  for (std::sregex_iterator it(page.begin(), page.end(), reference), end; it != end; ++it) {
    named.insert((*it)[1].str());
  }
  EXPECT_EQ(named, modules);
}

// The bytes of daemon/web/`name`.
std::string WebFile(const std::string& name) {
  std::ifstream file(testing::TestPath("SUDOKU_WEB_DIR") + "/" + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// What a browser makes of a gzip body.
std::string Gunzip(const std::string& bytes) {
  z_stream stream{};
  EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);
  std::string out;
  char chunk[16384];
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  int status = Z_OK;
  while (status == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    status = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - stream.avail_out);
  }
  EXPECT_EQ(status, Z_STREAM_END) << "the body is not a whole gzip stream";
  inflateEnd(&stream);
  return out;
}

// The page's ETag for `bytes`: FNV-1a, 64 bits, in hex (the same in every daemon).
std::string Fnv1a(const std::string& bytes) {
  uint64_t hash = 14695981039346656037u;
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211u;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

using Headers = std::vector<std::pair<std::string, std::string>>;

http::response<http::string_body> Get(uint16_t port, const std::string& target,
                                      const Headers& headers,
                                      http::verb method = http::verb::get) {
  return HttpRequest(port, method, target, "", "", headers);
}

TEST(WebPage, ServesTheFilesGzipCompressedToABrowserThatTakesIt) {
  WebServer server;
  size_t bytes = 0;
  size_t compressed = 0;
  for (const std::string& name : PageFiles()) {
    const std::string file = WebFile(name);
    const std::string etag = "\"" + Fnv1a(file) + "\"";
    for (const char* accepts : {"gzip, deflate, br, zstd", "gzip", "br;q=1.0, gzip;q=0.8", "*",
                                "deflate, x-gzip"}) {
      const auto page = Get(server.port(), "/" + name, {{"Accept-Encoding", accepts}});
      EXPECT_EQ(page.result_int(), 200u) << name << ", " << accepts;
      EXPECT_EQ(page[http::field::content_encoding], "gzip") << name << ", " << accepts;
      EXPECT_EQ(page[http::field::etag], "\"" + Fnv1a(file) + "-gzip\"") << name;
      EXPECT_EQ(page[http::field::vary], "Accept-Encoding");
      EXPECT_EQ(page[http::field::cache_control], "no-cache");
      EXPECT_EQ(page[http::field::content_length], std::to_string(page.body().size()));
      EXPECT_EQ(Gunzip(page.body()), file) << name;
      // Compressed, every file is under half its size (the small modules' share of gzip's
      // header and dictionary is the largest).
      EXPECT_LT(page.body().size(), file.size() / 2) << name;
      if (std::string(accepts) == "gzip") {
        bytes += file.size();
        compressed += page.body().size();
      }
    }
    // No Accept-Encoding, gzip refused, or codings the daemon does not make: the bytes as
    // they are, with the ETag of that form.
    for (const char* accepts : {"", "identity", "gzip;q=0", "gzip;q=0.000, br", "*;q=0", "br",
                                "deflate"}) {
      const auto page =
          accepts[0] ? Get(server.port(), "/" + name, {{"Accept-Encoding", accepts}})
                     : Get(server.port(), "/" + name, {});
      EXPECT_EQ(page.result_int(), 200u) << name << ", " << accepts;
      EXPECT_EQ(page.count(http::field::content_encoding), 0u) << name << ", " << accepts;
      EXPECT_EQ(page[http::field::etag], etag) << name;
      EXPECT_EQ(page[http::field::vary], "Accept-Encoding");
      EXPECT_EQ(page.body(), file) << name << ", " << accepts;
    }
  }
  // The page as a whole moves under 40% of its bytes.
  EXPECT_LT(compressed * 10, bytes * 4) << compressed << " of " << bytes;
  // HEAD says the length of the compressed GET.
  const Headers gzip = {{"Accept-Encoding", "gzip"}};
  const auto get = Get(server.port(), "/board.js", gzip);
  const auto head = Get(server.port(), "/board.js", gzip, http::verb::head);
  EXPECT_EQ(head.result_int(), 200u);
  EXPECT_EQ(head[http::field::content_encoding], "gzip");
  EXPECT_EQ(head[http::field::content_length], std::to_string(get.body().size()));
  EXPECT_EQ(head.body(), "");
}

TEST(WebPage, AnswersARevisitWithNotModified) {
  WebServer server;
  const std::string hash = Fnv1a(WebFile("index.html"));
  const std::string gzip_tag = "\"" + hash + "-gzip\"";
  const std::string tag = "\"" + hash + "\"";
  // The copy the browser holds is the one the daemon would send: 304, no body.
  for (const std::string& held :
       {gzip_tag, "W/" + gzip_tag, "\"0123\", " + gzip_tag, std::string("*")}) {
    for (const http::verb method : {http::verb::get, http::verb::head}) {
      const auto again =
          Get(server.port(), "/", {{"Accept-Encoding", "gzip"}, {"If-None-Match", held}}, method);
      EXPECT_EQ(again.result_int(), 304u) << held;
      EXPECT_EQ(again.body(), "");
      EXPECT_EQ(again.count(http::field::content_length), 0u) << held;
      EXPECT_EQ(again[http::field::etag], gzip_tag);
      EXPECT_EQ(again[http::field::vary], "Accept-Encoding");
      EXPECT_EQ(again[http::field::cache_control], "no-cache");
      EXPECT_EQ(again[http::field::content_encoding], "gzip");
    }
  }
  // Every file of the page, the modules too: the tag it came with gets a 304, of its type.
  for (const std::string& name : PageFiles()) {
    const std::string file_tag = "\"" + Fnv1a(WebFile(name)) + "-gzip\"";
    const auto first = Get(server.port(), "/" + name, {{"Accept-Encoding", "gzip"}});
    EXPECT_EQ(first.result_int(), 200u) << name;
    EXPECT_EQ(first[http::field::etag], file_tag) << name;
    const auto again = Get(server.port(), "/" + name,
                           {{"Accept-Encoding", "gzip"}, {"If-None-Match", file_tag}});
    EXPECT_EQ(again.result_int(), 304u) << name;
    EXPECT_EQ(again.body(), "") << name;
    EXPECT_EQ(again[http::field::content_type], first[http::field::content_type]) << name;
  }
  const auto plain = Get(server.port(), "/", {{"If-None-Match", tag}});
  EXPECT_EQ(plain.result_int(), 304u);
  EXPECT_EQ(plain[http::field::etag], tag);
  EXPECT_EQ(plain.count(http::field::content_encoding), 0u);
  // Another file's tag, the other form's (the compressed copy, to a client that no longer takes
  // gzip), or a tag from an older daemon: the file, whole.
  for (const auto& [held, accepts] :
       {std::pair<std::string, std::string>{"\"" + Fnv1a(WebFile("main.js")) + "-gzip\"", "gzip"},
        {gzip_tag, "identity"},
        {tag, "gzip"},
        {"\"0000000000000000-gzip\"", "gzip"}}) {
    const auto page =
        Get(server.port(), "/", {{"Accept-Encoding", accepts}, {"If-None-Match", held}});
    EXPECT_EQ(page.result_int(), 200u) << held << ", " << accepts;
    EXPECT_FALSE(page.body().empty()) << held;
  }
}

TEST(WebPage, HeadAnswersWithTheLengthOfGet) {
  WebServer server;
  const Reply get = Send(server.port(), http::verb::get, "/", "", "");
  const Reply head = Send(server.port(), http::verb::head, "/", "", "");
  EXPECT_EQ(head.status, 200u);
  EXPECT_EQ(head.body, "");
  EXPECT_EQ(head.content_length, std::to_string(get.body.size()));
}

TEST(WebPage, OtherPathsAreNotFoundAndOtherMethodsNotAllowed) {
  WebServer server;
  // "?api/explain" is no path at all (found by fuzz_http: it used to end in 500).
  for (const char* target : {"/index", "/main.jsx", "/web/main.js", "/app.js", "/favicon.ico",
                             "?api/explain"}) {
    const Reply reply = Send(server.port(), http::verb::get, target, "", "");
    EXPECT_EQ(reply.status, 404u) << target;
    EXPECT_EQ(reply.body, "not found: " + std::string(target) + " (the page is at /)\n");
  }
  const Reply post = Send(server.port(), http::verb::post, "/", "x", "text/plain");
  EXPECT_EQ(post.status, 405u);
  EXPECT_EQ(post.allow, "GET, HEAD");
  EXPECT_EQ(post.body, "method not allowed: use GET or HEAD\n");
}

TEST(WebPage, ServesTheMetricsBeside) {
  WebServer server;
  const Reply metrics = Send(server.port(), http::verb::get, "/metrics", "", "");
  EXPECT_EQ(metrics.status, 200u);
  EXPECT_EQ(metrics.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(metrics.body, "sudokud_up 1\n");
  const Reply post = Send(server.port(), http::verb::post, "/metrics", "", "");
  EXPECT_EQ(post.status, 405u);
  EXPECT_EQ(post.allow, "GET, HEAD");
}

// ---- /api/solve ----

// "rate": "hodoku" or "se" rates by that path alone, as sudoku-client's --rate-only: the
// rating has that path's keys (and the search's guesses), with the numbers "rate": true gives.
TEST(WebSolve, RatesByOnePathAlone) {
  WebServer server;
  const Json both = Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle},
                                                       {"rate", true}}).json();
  const Reply se = Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle},
                                                      {"rate", "se"}});
  ASSERT_EQ(se.status, 200u) << se.body;
  EXPECT_EQ(se.json()["rating"], Json({{"guesses", 0},
                                       {"se", both["rating"]["se"]},
                                       {"se_pearl", both["rating"]["se_pearl"]},
                                       {"se_diamond", both["rating"]["se_diamond"]}}));
  const Reply hodoku = Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle},
                                                          {"rate", "hodoku"}});
  ASSERT_EQ(hodoku.status, 200u) << hodoku.body;
  Json expected = both["rating"];
  expected.erase("se");
  expected.erase("se_pearl");
  expected.erase("se_diamond");
  EXPECT_EQ(hodoku.json()["rating"], expected);
  EXPECT_EQ(hodoku.json()["solution"], both["solution"]);
}

TEST(WebSolve, SolvesAndRates) {
  WebServer server;
  const Reply reply = Post(server.port(), "/api/solve",
                           {{"puzzle", kWikipediaPuzzle}, {"unique", true}, {"rate", true}});
  ASSERT_EQ(reply.status, 200u) << reply.body;
  EXPECT_EQ(reply.content_type, "application/json");
  const logic::Rating rating = logic::Rate(GridOf(kWikipediaPuzzle));
  const rating::Scales scales = rating::RateGrid(GridOf(kWikipediaPuzzle)).scales;
  const Json expected = {{"puzzle", kWikipediaPuzzle},
                         {"verdict", "solved"},
                         {"solution", kWikipediaSolution},
                         {"solutions", 1},
                         {"guesses", 0},
                         {"rating",
                          {{"level", logic::Name(rating.level)},
                           {"hardest", logic::Name(rating.hardest)},
                           {"steps", rating.steps},
                           {"guesses", 0},
                           {"logic_guesses", 0},
                           {"hodoku_level", rating::Name(scales.hodoku_level)},
                           {"hodoku_score", scales.hodoku_score},
                           {"se", scales.se_tenths / 10.0},
                           {"se_pearl", scales.se_pearl_tenths / 10.0},
                           {"se_diamond", scales.se_diamond_tenths / 10.0}}}};
  EXPECT_EQ(reply.json(), expected);
}

TEST(WebSolve, ReadsAPastedGridAndPencilmarks) {
  WebServer server;
  const Json grid = Post(server.port(), "/api/solve", {{"puzzle", kPastedGrid}}).json();
  EXPECT_EQ(grid["puzzle"], kWikipediaPuzzle);
  EXPECT_EQ(grid["solution"], kWikipediaSolution);
  EXPECT_FALSE(grid.contains("rating"));
  // Pencilmark puzzles are solved, not rated (the logical solver starts from givens).
  const std::string pencilmarks = Pencilmarks(kWikipediaPuzzle);
  const Reply reply = Post(server.port(), "/api/solve",
                           {{"puzzle", pencilmarks}, {"unique", true}, {"rate", true}});
  ASSERT_EQ(reply.status, 200u) << reply.body;
  EXPECT_EQ(reply.json(), Json({{"puzzle", pencilmarks},
                                {"verdict", "solved"},
                                {"solution", kWikipediaSolution},
                                {"solutions", 1},
                                {"guesses", 0}}));
}

// A candidate grid is read as the pencilmark line of the same candidates, by both endpoints.
TEST(WebSolve, ReadsAPastedCandidateGrid) {
  WebServer server;
  std::string pencilmarks;
  std::istringstream grid(kCandidateGrid);
  for (std::string line; std::getline(grid, line);) {
    if (line[0] != '|') continue;
    std::istringstream cells(line);
    for (std::string cell; cells >> cell;) {
      if (cell == "|") continue;
      for (char d = '1'; d <= '9'; ++d) pencilmarks += cell.find(d) != std::string::npos ? d : '.';
    }
  }
  ASSERT_EQ(pencilmarks.size(), 729u);
  const Reply solved =
      Post(server.port(), "/api/solve", {{"puzzle", kCandidateGrid}, {"unique", true}});
  ASSERT_EQ(solved.status, 200u) << solved.body;
  EXPECT_EQ(solved.json(), Json({{"puzzle", pencilmarks},
                                 {"verdict", "solved"},
                                 {"solution", kWikipediaSolution},
                                 {"solutions", 1},
                                 {"guesses", 0}}));
  const Reply explained = Post(server.port(), "/api/explain", {{"puzzle", kCandidateGrid}});
  ASSERT_EQ(explained.status, 200u) << explained.body;
  EXPECT_EQ(explained.json(),
            Post(server.port(), "/api/explain", {{"puzzle", pencilmarks}}).json());
  EXPECT_EQ(explained.json()["solution"], kWikipediaSolution);
}

TEST(WebSolve, SaysWhenThereAreSeveralSolutionsOrNone) {
  WebServer server;
  const Json multiple =
      Post(server.port(), "/api/solve", {{"puzzle", kEmpty}, {"unique", true}}).json();
  EXPECT_EQ(multiple["verdict"], "multiple");
  EXPECT_EQ(multiple["solutions"], 2);
  const Json counted =
      Post(server.port(), "/api/solve", {{"puzzle", kEmpty}, {"limit", 5}}).json();
  EXPECT_EQ(counted["verdict"], "multiple");
  EXPECT_EQ(counted["solutions"], 5);
  const Reply none = Post(server.port(), "/api/solve", {{"puzzle", kUnsolvable}, {"rate", true}});
  EXPECT_EQ(none.status, 200u);
  EXPECT_EQ(none.json(), Json({{"puzzle", kUnsolvable},
                               {"verdict", "unsolvable"},
                               {"solutions", 0},
                               {"guesses", 0}}));
}

// A puzzle the API refuses, and the message it must give (as sudoku-client prints it for the
// same text on its standard input).
struct BadPuzzle {
  std::string text;
  std::string where;
  std::string reason;
  bool read = true;  // the puzzle's 81 cells were read: the refusal names them

  // The API's answer, sudoku-client's JSON line (proto/result_json.h).
  Json Refusal() const {
    Json out = {{"verdict", "invalid"},
                {"error", "invalid: " + where + ": " + reason},
                {"where", where},
                {"reason", reason}};
    if (read) out["puzzle"] = text.substr(text.size() - 81);
    return out;
  }
};

std::vector<BadPuzzle> BadPuzzles() {
  std::string bad_character = kWikipediaPuzzle;
  bad_character[11] = 'x';
  std::string repeated = kWikipediaPuzzle;
  repeated[3] = '5';
  std::string grid_row = kPastedGrid;
  grid_row.replace(grid_row.find("| 6 . ."), 7, "| 6 . ");
  std::string candidate_repeated = kCandidateGrid;
  candidate_repeated.replace(candidate_repeated.find("| 6   247  247 "), 15, "| 6   247  2477");
  std::string candidate_row = kCandidateGrid;
  candidate_row.replace(candidate_row.find(" 1    9  5    |"), 15, " 1    9       |");
  return {
      {bad_character, "line 1, column 12",
       "bad character 'x' (expected 1-9, or . 0 _ - * for a blank)"},
      {repeated, "line 1, column 4", "digit 5 repeated in row 1 (r1c1 and r1c4)"},
      {std::string(kWikipediaPuzzle).substr(0, 80), "line 1", "expected 81 cells, found 80",
       false},
      {grid_row, "line 3", "expected 9 cells in a grid row, found 8", false},
      {candidate_repeated, "line 3, column 15", "digit 7 repeated in the candidates of r2c3",
       false},
      {candidate_row, "line 3", "expected 9 cells in a candidate grid row, found 8", false},
      {"\n\n" + std::string(kWikipediaPuzzle).replace(40, 1, "4"), "line 3, column 41",
       "digit 4 repeated in row 5 (r5c1 and r5c5)"},
  };
}

TEST(WebSolve, RefusesBadPuzzlesWithTheClientsWords) {
  WebServer server;
  for (const BadPuzzle& bad : BadPuzzles()) {
    for (const char* endpoint : {"/api/solve", "/api/explain"}) {
      const Reply reply = Post(server.port(), endpoint, {{"puzzle", bad.text}});
      EXPECT_EQ(reply.status, 400u) << endpoint << " " << bad.text;
      EXPECT_EQ(reply.json(), bad.Refusal()) << endpoint;
    }
  }
}

TEST(WebSolve, RefusesBadFieldsNamingThem) {
  WebServer server;
  const uint16_t port = server.port();
  const std::vector<std::pair<Json, std::string>> cases = {
      {{{"puzzle", kWikipediaPuzzle}, {"uniq", true}},
       "unknown field 'uniq' (expected puzzle, unique, limit, rate)"},
      {{{"puzzle", kWikipediaPuzzle}, {"unique", true}, {"limit", 3}},
       "'unique' and 'limit' cannot be used together ('unique' is 'limit': 2)"},
      {{{"puzzle", kWikipediaPuzzle}, {"limit", 0}},
       "'limit' expects a whole number from 1 to 1000, got 0"},
      {{{"puzzle", kWikipediaPuzzle}, {"limit", 1001}},
       "'limit' expects a whole number from 1 to 1000, got 1001"},
      {{{"puzzle", kWikipediaPuzzle}, {"limit", 2.5}},
       "'limit' expects a whole number from 1 to 1000, got 2.5"},
      {{{"puzzle", kWikipediaPuzzle}, {"unique", "yes"}},
       "'unique' expects true or false, got \"yes\""},
      {{{"puzzle", kWikipediaPuzzle}, {"rate", "SE"}},
       "'rate' expects true, false, \"hodoku\" or \"se\", got \"SE\""},
      {{{"puzzle", kWikipediaPuzzle}, {"rate", 1}},
       "'rate' expects true, false, \"hodoku\" or \"se\", got 1"},
      {{{"puzzle", 5}}, "'puzzle' expects a string, got 5"},
      {{{"rate", true}},
       "missing 'puzzle': the puzzle text (81 characters, a 9-line grid, a 729-character "
       "candidate state or HoDoKu's PM grid)"},
      {{{"puzzle", "\n# a comment\n\n"}},
       "'puzzle' holds no puzzle (expected 81 characters, a 9-line grid, a 729-character "
       "candidate state or HoDoKu's PM grid)"},
      {{{"puzzle", std::string(kWikipediaPuzzle) + "\n\n" + kWikipediaSolution}},
       "'puzzle' holds more than one puzzle (the second starts at line 3); give one at a time"},
      {Json::array({1, 2}), "the body must be a JSON object, got [1,2]"},
      {{{"puzzle", std::string(100, '.')}, {"limit", std::string(100, 'x')}},
       "'limit' expects a whole number from 1 to 1000, got \"" + std::string(36, 'x') + "..."},
  };
  for (const auto& [body, message] : cases) {
    const Reply reply = Post(port, "/api/solve", body);
    EXPECT_EQ(reply.status, 400u) << body;
    EXPECT_EQ(reply.json(), Json({{"error", message}})) << body;
  }
  const Reply not_json = Send(port, http::verb::post, "/api/solve", "{\"puzzle\": ");
  EXPECT_EQ(not_json.status, 400u);
  EXPECT_EQ(not_json.json()["error"],
            "the body is not JSON: parse error at line 1, column 12: syntax error while parsing "
            "value - unexpected end of input; expected '[', '{', or a literal");
  // A number no field could hold (found by fuzz_http: it used to end in 500).
  const Reply overflow = Send(port, http::verb::post, "/api/solve", "4E400");
  EXPECT_EQ(overflow.status, 400u);
  EXPECT_EQ(overflow.json()["error"],
            "the body is not JSON: number overflow parsing '4E400'");
}

// ---- /api/explain ----

TEST(WebExplain, GivesTheStepsWithTheirCandidates) {
  WebServer server;
  const Reply reply = Post(server.port(), "/api/explain", {{"puzzle", kPastedGrid}});
  ASSERT_EQ(reply.status, 200u) << reply.body;
  const Json answer = reply.json();
  const Grid start = GridOf(kWikipediaPuzzle);
  const logic::Explanation explanation = logic::Explain(start);
  EXPECT_EQ(answer["puzzle"], kWikipediaPuzzle);
  EXPECT_EQ(answer["verdict"], "solved");
  EXPECT_EQ(answer["solution"], kWikipediaSolution);
  ASSERT_EQ(answer["steps"].size(), explanation.steps.size());
  // Each step as sudoku-client explain --json writes it, with the candidates before it.
  Grid grid = start;
  logic::Candidates candidates = logic::InitialCandidates(grid);
  for (size_t i = 0; i < explanation.steps.size(); ++i) {
    const logic::Step& step = explanation.steps[i];
    const Json& got = answer["steps"][i];
    EXPECT_EQ(got["step"], i + 1);
    EXPECT_EQ(got["technique"], logic::Name(step.technique));
    EXPECT_EQ(got["text"], logic::Describe(step));
    ASSERT_EQ(got["placements"].size(), step.placements.size());
    for (size_t p = 0; p < step.placements.size(); ++p) {
      EXPECT_EQ(got["placements"][p],
                Json({{"cell", logic::CellName(step.placements[p].cell)},
                      {"digit", step.placements[p].digit}}));
    }
    EXPECT_EQ(got["eliminations"].size(), step.eliminations.size());
    ASSERT_EQ(got["candidates"].size(), 81u);
    for (int cell = 0; cell < kCells; ++cell) {
      std::string digits;
      for (int d = 1; d <= 9; ++d) {
        if ((candidates[cell] >> (d - 1)) & 1) digits += static_cast<char>('0' + d);
      }
      EXPECT_EQ(got["candidates"][cell], digits) << "step " << i + 1 << " cell " << cell;
    }
    logic::Apply(step, &grid, &candidates);
  }
  const logic::Rating rating = logic::Rate(start);
  const rating::Scales scales = rating::RateGrid(start).scales;
  EXPECT_EQ(answer["rating"], Json({{"level", logic::Name(rating.level)},
                                    {"hardest", logic::Name(rating.hardest)},
                                    {"steps", rating.steps},
                                    {"guesses", rating.guesses},
                                    {"logic_guesses", 0},
                                    {"hodoku_level", rating::Name(scales.hodoku_level)},
                                    {"hodoku_score", scales.hodoku_score},
                                    {"se", scales.se_tenths / 10.0},
                                    {"se_pearl", scales.se_pearl_tenths / 10.0},
                                    {"se_diamond", scales.se_diamond_tenths / 10.0}}));
  EXPECT_EQ(answer["steps"][0]["units"].is_array(), true);
}

TEST(WebExplain, NamesAChoiceAsAChoice) {
  WebServer server;
  // An empty grid has many solutions: no technique applies to it, and no candidate leads to a
  // contradiction, so a digit is chosen, and the step says why.
  const Json answer = Post(server.port(), "/api/explain", {{"puzzle", kEmpty}}).json();
  EXPECT_EQ(answer["verdict"], "multiple");
  ASSERT_FALSE(answer["steps"].empty());
  EXPECT_EQ(answer["steps"][0]["technique"], "trial");
  EXPECT_EQ(answer["steps"][0]["text"], "the puzzle has several solutions: r1c1 = 1 chosen");
  EXPECT_GT(answer["rating"]["logic_guesses"].get<int>(), 0);
}

TEST(WebExplain, AnswersUnsolvableAndExplainsPencilmarks) {
  WebServer server;
  const Reply none = Post(server.port(), "/api/explain", {{"puzzle", kUnsolvable}});
  EXPECT_EQ(none.status, 200u);
  EXPECT_EQ(none.json(), Json({{"puzzle", kUnsolvable}, {"verdict", "unsolvable"}}));
  // A candidate state (a player's notes): its singles are placed, the steps start from the rest.
  // With every open cell's nine digits, the steps are those of the givens.
  const Reply pencilmarks =
      Post(server.port(), "/api/explain", {{"puzzle", Pencilmarks(kWikipediaPuzzle)}});
  EXPECT_EQ(pencilmarks.status, 200u) << pencilmarks.body;
  Json from_givens = Post(server.port(), "/api/explain", {{"puzzle", kWikipediaPuzzle}}).json();
  from_givens["puzzle"] = Pencilmarks(kWikipediaPuzzle);
  EXPECT_EQ(pencilmarks.json(), from_givens);
  // The solution's 4 struck from r1c3 by hand: the notes leave the puzzle no solution.
  std::string struck = Pencilmarks(kWikipediaPuzzle);
  struck[2 * 9 + 3] = '.';
  EXPECT_EQ(Post(server.port(), "/api/explain", {{"puzzle", struck}}).json(),
            Json({{"puzzle", struck}, {"verdict", "unsolvable"}}));
  // Notes that contradict at sight are told why: r1c3 noted as 5 alone, as r1c1 is given.
  std::string clash = Pencilmarks(kWikipediaPuzzle);
  clash.replace(2 * 9, 9, "....5....");
  EXPECT_EQ(Post(server.port(), "/api/explain", {{"puzzle", clash}}).json(),
            Json({{"puzzle", clash},
                  {"verdict", "unsolvable"},
                  {"reason", "r1c3 holds only 5, as r1c1 does, in row 1"}}));
  const Reply extra =
      Post(server.port(), "/api/explain", {{"puzzle", kWikipediaPuzzle}, {"rate", true}});
  EXPECT_EQ(extra.status, 400u);
  EXPECT_EQ(extra.json(), Json({{"error", "unknown field 'rate' (expected puzzle)"}}));
}

// ---- /api/generate ----

TEST(WebGenerate, MakesUniquePuzzlesOfTheLevelAsked) {
  WebServer server;
  const Json body = {{"count", 3}, {"level", "intermediate"}, {"seed", 7}};
  const Reply reply = Post(server.port(), "/api/generate", body);
  ASSERT_EQ(reply.status, 200u) << reply.body;
  const Json answer = reply.json();
  EXPECT_EQ(answer["seed"], 7);
  EXPECT_EQ(answer["failures"], Json::array());
  ASSERT_EQ(answer["puzzles"].size(), 3u);
  for (const Json& made : answer["puzzles"]) {
    const std::string puzzle = made["puzzle"];
    const Result result = Solve(puzzle, Limits{.max_solutions = 2});
    EXPECT_EQ(result.verdict, Verdict::kSolved) << puzzle;
    EXPECT_EQ(logic::Rate(GridOf(puzzle)).level, logic::Level::kIntermediate) << puzzle;
    EXPECT_EQ(made["clues"], 81 - std::count(puzzle.begin(), puzzle.end(), '.'));
  }
  // A seed gives the same puzzles again.
  EXPECT_EQ(Post(server.port(), "/api/generate", body).json(), answer);
  // Without one, a seed is drawn and told.
  const Json drawn = Post(server.port(), "/api/generate", Json::object()).json();
  EXPECT_TRUE(drawn["seed"].is_number_unsigned());
  EXPECT_EQ(drawn["puzzles"].size(), 1u);
}

// Each puzzle of /api/generate's answer to `body`, rated by /api/solve.
std::vector<Json> GeneratedRatings(uint16_t port, const Json& body) {
  const Reply reply = Post(port, "/api/generate", body);
  EXPECT_EQ(reply.status, 200u) << reply.body;
  const Json answer = reply.json();
  EXPECT_EQ(answer["failures"], Json::array()) << body;
  EXPECT_EQ(answer["puzzles"].size(), body["count"].get<size_t>()) << body;
  std::vector<Json> ratings;
  for (const Json& made : answer["puzzles"]) {
    const Json solved =
        Post(port, "/api/solve", {{"puzzle", made["puzzle"]}, {"unique", true}, {"rate", true}})
            .json();
    EXPECT_EQ(solved["verdict"], "solved") << made;
    ratings.push_back(solved["rating"]);
  }
  return ratings;
}

// The SE rating /api/solve wrote, in tenths.
long SeTenths(const Json& rating) { return std::lround(rating["se"].get<double>() * 10); }

TEST(WebGenerate, MakesPuzzlesOfTheHodokuLevelAndSeRangeAsked) {
  WebServer server;
  for (const Json& rating :
       GeneratedRatings(server.port(), {{"count", 2}, {"hodoku_level", "hard"}, {"seed", 7}})) {
    EXPECT_EQ(rating["hodoku_level"], "hard") << rating;
  }
  for (const Json& rating :
       GeneratedRatings(server.port(), {{"count", 2}, {"se_min", 3.2}, {"seed", 7}})) {
    EXPECT_GE(SeTenths(rating), 32) << rating;
  }
  for (const Json& rating :
       GeneratedRatings(server.port(), {{"count", 2}, {"se_max", 1.5}, {"seed", 7}})) {
    EXPECT_LE(SeTenths(rating), 15) << rating;
  }
  // Both bounds, given as whole numbers and with a decimal.
  for (const Json& rating : GeneratedRatings(
           server.port(), {{"count", 2}, {"se_min", 2}, {"se_max", 2.6}, {"seed", 7}})) {
    EXPECT_GE(SeTenths(rating), 20) << rating;
    EXPECT_LE(SeTenths(rating), 26) << rating;
  }
}

TEST(WebGenerate, MakesPuzzlesWhoseExplanationTakesTheTechniqueNamed) {
  WebServer server;
  for (const char* technique : {"x-wing", "xy-chain"}) {
    const Json body = {{"count", 2}, {"needs", technique}, {"seed", 7}};
    const Reply reply = Post(server.port(), "/api/generate", body);
    ASSERT_EQ(reply.status, 200u) << reply.body;
    const Json answer = reply.json();
    EXPECT_EQ(answer["failures"], Json::array()) << body;
    ASSERT_EQ(answer["puzzles"].size(), 2u) << body;
    for (const Json& made : answer["puzzles"]) {
      // The explanation /api/explain gives takes a step of it, by the same name.
      const Json explained =
          Post(server.port(), "/api/explain", {{"puzzle", made["puzzle"]}}).json();
      ASSERT_EQ(explained["verdict"], "solved") << made;
      const Json& steps = explained["steps"];
      EXPECT_TRUE(std::any_of(steps.begin(), steps.end(),
                              [&](const Json& step) { return step["technique"] == technique; }))
          << technique << ": " << made;
    }
  }
}

TEST(WebGenerate, RefusesBadFieldsNamingThem) {
  WebServer server;
  const std::string kTechniques(sudoku::testing::kNeedableTechniqueNames);
  const std::vector<std::pair<Json, std::string>> cases = {
      {{{"count", 0}}, "'count' expects a whole number from 1 to 16, got 0"},
      {{{"count", 17}}, "'count' expects a whole number from 1 to 16, got 17"},
      {{{"count", -1}}, "'count' expects a whole number from 1 to 16, got -1"},
      {{{"level", "hard"}},
       "'level' expects simple, easy, intermediate or expert, got \"hard\""},
      {{{"level", 2}}, "'level' expects a string, got 2"},
      {{{"clues", 5}}, "'clues' expects 17 to 81, or 0 for no target, got 5"},
      {{{"clues", 82}}, "'clues' expects 17 to 81, or 0 for no target, got 82"},
      {{{"symmetric", 1}}, "'symmetric' expects true or false, got 1"},
      {{{"seed", "x"}}, "'seed' expects a whole number from 0 to 18446744073709551615, got \"x\""},
      {{{"hodoku_level", "expert"}},
       "'hodoku_level' expects easy, medium, hard, unfair or extreme, got \"expert\""},
      {{{"hodoku_level", 3}}, "'hodoku_level' expects a string, got 3"},
      {{{"se_min", 0.9}},
       "'se_min' expects a rating from 1.0 to 11.9 with at most one decimal, got 0.9"},
      {{{"se_max", 12}},
       "'se_max' expects a rating from 1.0 to 11.9 with at most one decimal, got 12"},
      {{{"se_min", 4.25}},
       "'se_min' expects a rating from 1.0 to 11.9 with at most one decimal, got 4.25"},
      {{{"se_max", "4.2"}},
       "'se_max' expects a rating from 1.0 to 11.9 with at most one decimal, got \"4.2\""},
      {{{"se_min", -4}},
       "'se_min' expects a rating from 1.0 to 11.9 with at most one decimal, got -4"},
      {{{"se_min", 5}, {"se_max", 4.5}}, "'se_min' 5.0 is above 'se_max' 4.5"},
      {{{"needs", "xy chain"}},
       "'needs' expects a technique (" + kTechniques + "), got \"xy chain\""},
      {{{"needs", "X-Wing"}}, "'needs' expects a technique (" + kTechniques + "), got \"X-Wing\""},
      {{{"needs", "wxyz-wing"}},
       "'needs' expects a technique (" + kTechniques + "), got \"wxyz-wing\""},
      {{{"needs", 8}}, "'needs' expects a string, got 8"},
      {{{"difficulty", "easy"}},
       "unknown field 'difficulty' (expected count, level, hodoku_level, se_min, se_max, needs, "
       "clues, symmetric, minimal, seed)"},
  };
  for (const auto& [body, message] : cases) {
    const Reply reply = Post(server.port(), "/api/generate", body);
    EXPECT_EQ(reply.status, 400u) << body;
    EXPECT_EQ(reply.json(), Json({{"error", message}})) << body;
  }
}

// ---- What every API path shares ----

TEST(WebApiPaths, UnknownPathsMethodsAndTypesAreRefused) {
  WebServer server;
  const uint16_t port = server.port();
  const Reply missing = Post(port, "/api/solver", {{"puzzle", kWikipediaPuzzle}});
  EXPECT_EQ(missing.status, 404u);
  EXPECT_EQ(missing.json(),
            Json({{"error", "not found: /api/solver (the API has /api/solve, /api/explain and "
                            "/api/generate)"}}));
  for (const char* path : {"/api/solve", "/api/explain", "/api/generate"}) {
    for (http::verb method : {http::verb::get, http::verb::put, http::verb::head}) {
      const Reply reply = Send(port, method, path, "");
      EXPECT_EQ(reply.status, 405u) << path << " " << method;
      EXPECT_EQ(reply.allow, "POST");
      if (method != http::verb::head) {
        EXPECT_EQ(reply.json(), Json({{"error", "method not allowed: use POST"}}));
      }
    }
  }
  const std::string body = Json({{"puzzle", kWikipediaPuzzle}}).dump();
  const Reply text = Send(port, http::verb::post, "/api/solve", body, "text/plain");
  EXPECT_EQ(text.status, 415u);
  EXPECT_EQ(text.json(),
            Json({{"error", "the body must be JSON sent as Content-Type: application/json (got "
                            "'text/plain')"}}));
  const Reply untyped = Send(port, http::verb::post, "/api/solve", body, "");
  EXPECT_EQ(untyped.status, 415u);
  EXPECT_EQ(untyped.json()["error"],
            "the body must be JSON sent as Content-Type: application/json (got none)");
  EXPECT_EQ(
      Send(port, http::verb::post, "/api/solve", body, "Application/JSON; charset=utf-8").status,
      200u);
}

TEST(WebApiPaths, BodiesAreBoundedAt64KiB) {
  WebServer server;
  // At the limit: accepted (JSON allows any whitespace).
  std::string body = Json({{"puzzle", kWikipediaPuzzle}}).dump();
  body.insert(1, WebApi::kMaxBodyBytes - body.size(), ' ');
  ASSERT_EQ(body.size(), 65536u);
  EXPECT_EQ(Send(server.port(), http::verb::post, "/api/solve", body).status, 200u);
  // One byte more: refused before it is read.
  body.insert(1, " ");
  const Reply reply = Send(server.port(), http::verb::post, "/api/solve", body);
  EXPECT_EQ(reply.status, 413u);
  EXPECT_EQ(reply.json(),
            Json({{"error", "payload too large: the body is 65537 bytes, more than the limit of "
                            "65536"}}));
  // The page's paths answer in text.
  const Reply page = Send(server.port(), http::verb::post, "/", std::string(70000, 'x'));
  EXPECT_EQ(page.status, 413u);
  EXPECT_EQ(page.body,
            "payload too large: the body is 70000 bytes, more than the limit of 65536\n");
  // And the server still serves.
  EXPECT_EQ(Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle}}).status, 200u);
}

TEST(WebApiPaths, RequestsWorkingAtOnceAreBounded) {
  WebServer server(WebApiOptions{.max_in_flight = 2});
  // The only solver thread waits for this, so that requests stay in flight until it is set.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  server.pool().Run(server.io().get_executor(), [released] { released.wait(); },
                    [](std::exception_ptr) {});
  std::vector<std::future<Reply>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::async(std::launch::async, [&server] {
      return Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle}});
    }));
  }
  for (int attempt = 0; server.InFlight() < 2; ++attempt) {
    ASSERT_LT(attempt, 6000);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const Reply busy = Post(server.port(), "/api/explain", {{"puzzle", kWikipediaPuzzle}});
  EXPECT_EQ(busy.status, 503u);
  EXPECT_EQ(busy.retry_after, "1");
  EXPECT_EQ(busy.json(),
            Json({{"error", "busy: the daemon is working on 2 requests, the most it takes at "
                            "once; try again shortly"}}));
  // The page itself is not held back.
  EXPECT_EQ(Send(server.port(), http::verb::get, "/", "", "").status, 200u);
  release.set_value();
  for (auto& reply : held) EXPECT_EQ(reply.get().status, 200u);
  EXPECT_EQ(Post(server.port(), "/api/explain", {{"puzzle", kWikipediaPuzzle}}).status, 200u);
}

TEST(WebApiPaths, RequestsShareTheDaemonsInFlightBudgetAtTheProtocolsCosts) {
  // The budget of the protocol's port, --max-in-flight 16, where a connection holds 17 puzzles.
  WebServer server({}, /*max_in_flight=*/16);
  Admission& admission = server.admission();
  const auto on_server = [&](auto f) {
    return server.OnServer([&] {
      f();
      return admission.in_flight();
    });
  };
  on_server([&] { admission.Charge(0, 17); });
  // A generation costs a puzzle per puzzle asked for, as a GenerateRequest on the port does:
  // 16 more would take the total past twice the limit.
  const Reply busy = Post(server.port(), "/api/generate", {{"count", 16}, {"seed", 7}});
  EXPECT_EQ(busy.status, 503u);
  EXPECT_EQ(busy.retry_after, "1");
  EXPECT_EQ(busy.json(), Json({{"error", "busy: the daemon has 17 puzzles in flight, its limit is "
                                         "16 (--max-in-flight); try again shortly"}}));
  // One puzzle is within a newcomer's share; its cost is given back once answered.
  EXPECT_EQ(Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle}}).status, 200u);
  EXPECT_EQ(on_server([] {}), 17u);
  // The port's connection done, the generation is taken.
  on_server([&] {
    admission.WorkDone(17);
    admission.Release(0, 17, false);
  });
  EXPECT_EQ(Post(server.port(), "/api/generate", {{"count", 16}, {"seed", 7}}).status, 200u);
  EXPECT_EQ(on_server([] {}), 0u);
}

// The body a request holds while it works is charged to the port's memory budget
// (--max-memory): a request with no room in it gets 503, and its bytes are given back once it is
// answered.
TEST(WebApiPaths, RequestsShareTheDaemonsMemoryBudget) {
  // A budget of 1,000 bytes of which a connection of the port holds 950.
  WebServer server({}, /*max_in_flight=*/1000, /*max_memory=*/1000);
  Admission& admission = server.admission();
  const auto on_server = [&](auto f) {
    return server.OnServer([&] {
      f();
      return admission.memory();
    });
  };
  on_server([&] { admission.MemoryChanged(0, 950); });
  const Reply busy = Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle}});
  EXPECT_EQ(busy.status, 503u);
  EXPECT_EQ(busy.retry_after, "1");
  EXPECT_EQ(busy.json(), Json({{"error", "busy: the daemon holds 950 bytes of requests and "
                                         "answers, its budget is 1000 (--max-memory); try again "
                                         "shortly"}}));
  on_server([&] { admission.MemoryChanged(950, 0); });
  EXPECT_EQ(Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle}}).status, 200u);
  EXPECT_EQ(on_server([] {}), 0u);
}

// The API's requests are the port's to the one RequestHandler: answered, they are counted in
// the daemon's metrics as the port's are.
TEST(WebApiPaths, RequestsAreCountedAsTheProtocolsAre) {
  WebServer server;
  EXPECT_EQ(Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle}}).status, 200u);
  EXPECT_EQ(Post(server.port(), "/api/solve", {{"puzzle", std::string(81, '.')}, {"limit", 3}})
                .status,
            200u);
  EXPECT_EQ(Post(server.port(), "/api/explain", {{"puzzle", kWikipediaPuzzle}}).status, 200u);
  EXPECT_EQ(Post(server.port(), "/api/generate", {{"count", 3}, {"seed", 7}}).status, 200u);
  const ServerStats stats = server.Stats();
  EXPECT_EQ(stats.batches, 2u);
  EXPECT_EQ(stats.batches_cancelled, 0u);
  EXPECT_EQ(stats.puzzles.solved, 1u);
  EXPECT_EQ(stats.puzzles.multiple, 1u);
  EXPECT_EQ(stats.explains, 1u);
  EXPECT_EQ(stats.generates, 1u);
  EXPECT_EQ(stats.puzzles_generated, 3u);
  // Everything given back.
  EXPECT_EQ(server.OnServer([&] { return server.admission().in_flight(); }), 0u);
  EXPECT_EQ(server.OnServer([&] { return server.admission().memory(); }), 0u);
}

// The listener answers the page and the metrics on its own thread; only the API's requests wait
// for the event loop, where the RequestHandler is.
TEST(WebApiPaths, OnlyTheApiWaitsForABusyEventLoop) {
  WebServer server;
  const auto release = server.BlockLoop();
  EXPECT_EQ(Send(server.port(), http::verb::get, "/", "", "").status, 200u);
  EXPECT_EQ(Send(server.port(), http::verb::get, "/metrics", "", "").body, "sudokud_up 1\n");
  auto solved = std::async(std::launch::async, [&server] {
    return Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle}});
  });
  EXPECT_EQ(solved.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout);
  release->set_value();
  const Reply reply = solved.get();
  EXPECT_EQ(reply.status, 200u);
  EXPECT_EQ(reply.json()["solution"], kWikipediaSolution);
}

TEST(WebApiPaths, AStoppedApiRefusesWork) {
  WebServer server;
  server.StopApi();
  const Reply reply = Post(server.port(), "/api/solve", {{"puzzle", kWikipediaPuzzle}});
  EXPECT_EQ(reply.status, 503u);
  EXPECT_EQ(reply.json(), Json({{"error", "sudokud is stopping"}}));
  EXPECT_EQ(Send(server.port(), http::verb::get, "/", "", "").status, 200u);
}

// ---- A real sudokud with --http ----

using sudoku::testing::DaemonProcess;
using sudoku::testing::RunDaemonToExit;

uint16_t HttpPort(const DaemonProcess& daemon) {
  const std::string line = daemon.WaitForLog("serving the page on http://127.0.0.1:");
  EXPECT_THAT(line, HasSubstr("/ (API at /api/, metrics at /metrics)"));
  const size_t start = line.find("127.0.0.1:") + 10;
  return static_cast<uint16_t>(std::stoi(line.substr(start, line.find('/', start) - start)));
}

// What `sudoku-client COMMAND` (solve unless `args` say otherwise) prints for `text` on its
// standard input.
std::string ClientOutput(uint16_t port, const std::string& text,
                         const std::string& args = "solve --no-progress") {
  char path[] = "/tmp/web_api_test_XXXXXX";
  const int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path, std::ios::binary) << text;
  const std::string command = testing::TestPath("SUDOKU_CLIENT_BIN") + " " + args +
                              " --connect 127.0.0.1:" + std::to_string(port) +
                              " < " + path + " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  ::unlink(path);
  return out;
}

TEST(WebDaemon, ServesThePageAndRefusesAsTheClientDoes) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--threads", "1"});
  const uint16_t port = HttpPort(daemon);
  EXPECT_EQ(Send(port, http::verb::get, "/", "", "").status, 200u);
  EXPECT_THAT(Send(port, http::verb::get, "/metrics", "", "").body,
              HasSubstr("sudokud_connections_total"));
  for (const BadPuzzle& bad : BadPuzzles()) {
    const Reply reply = Post(port, "/api/solve", {{"puzzle", bad.text}});
    EXPECT_EQ(reply.json()["error"].get<std::string>() + "\n",
              ClientOutput(daemon.port(), bad.text));
  }
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

// One schema (proto/result_json.h): for each puzzle, sudoku-client's JSON line and the API's
// answer are the same bytes, whatever the verdict, with the rating and with the explanation.
TEST(WebDaemon, AnswersWithTheObjectsTheClientsJsonWrites) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--threads", "1"});
  const uint16_t port = HttpPort(daemon);
  std::vector<std::string> puzzles = {kWikipediaPuzzle, kEmpty, kUnsolvable,
                                      Pencilmarks(kWikipediaPuzzle), kPastedGrid};
  for (const BadPuzzle& bad : BadPuzzles()) puzzles.push_back(bad.text);
  for (const std::string& puzzle : puzzles) {
    SCOPED_TRACE(puzzle);
    const Reply solved =
        Post(port, "/api/solve", {{"puzzle", puzzle}, {"unique", true}, {"rate", true}});
    EXPECT_EQ(solved.body, ClientOutput(daemon.port(), puzzle,
                                        "solve --no-progress --format json --unique --rate"));
    // explain names its one input where a refusal says where ("stdin, line 1"); the API's
    // has no name.
    auto explained =
        nlohmann::ordered_json::parse(Post(port, "/api/explain", {{"puzzle", puzzle}}).body);
    if (explained.contains("where")) {
      const std::string where = "stdin, " + explained["where"].get<std::string>();
      explained["error"] = "invalid: " + where + ": " + explained["reason"].get<std::string>();
      explained["where"] = where;
    }
    EXPECT_EQ(explained.dump() + "\n",
              ClientOutput(daemon.port(), puzzle, "explain --json --candidates -"));
  }
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

TEST(WebDaemon, TakesAPortAloneForLoopback) {
  DaemonProcess daemon({"--listen", "127.0.0.1:0", "--http", "0", "--threads", "1"});
  EXPECT_EQ(Post(HttpPort(daemon), "/api/solve", {{"puzzle", kWikipediaPuzzle}}).json()["solution"],
            kWikipediaSolution);
  daemon.Signal(SIGTERM);
  EXPECT_EQ(daemon.Wait(), 0);
}

TEST(WebDaemon, RefusesBadAddresses) {
  const auto same = RunDaemonToExit({"--metrics", "127.0.0.1:9100", "--http", "127.0.0.1:9100"});
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_EQ(same.err,
            "sudokud: --metrics and --http name the same address; --http serves /metrics too, so "
            "give --http alone (see sudokud --help)\n");
  const auto bad = RunDaemonToExit({"--http", "localhost"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err,
            "sudokud: --http 'localhost': expected [HOST:]PORT, e.g. 9810, 127.0.0.1:9810 or "
            "[::1]:9810 (see sudokud --help)\n");
}

TEST(WebDaemon, ReportsAnAddressInUse) {
  DaemonProcess first({"--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--threads", "1"});
  const std::string address = "127.0.0.1:" + std::to_string(HttpPort(first));
  const auto result = RunDaemonToExit({"--listen", "127.0.0.1:0", "--http", address});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "sudokud: cannot serve the page on " + address +
                            ": Address already in use (another program, perhaps a sudokud "
                            "started earlier, holds it: stop it, or give --http another port)\n");
}

}  // namespace
}  // namespace sudoku::daemon
