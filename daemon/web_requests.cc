#include "daemon/web_requests.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <initializer_list>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include "daemon/request_work.h"
#include "daemon/web_assets.h"
#include "proto/explain_wire.h"
#include "proto/result_json.h"
#include "proto/verdicts.h"
#include "solver/generator.h"
#include "solver/logic.h"
#include "solver/puzzle_reader.h"
#include "solver/rating.h"

namespace sudoku::daemon {

namespace http = boost::beast::http;
// Keys stay in the order written, as in sudoku-client's JSON.
using Json = nlohmann::ordered_json;

namespace {

constexpr std::string_view kJsonType = "application/json";
constexpr std::string_view kTextType = "text/plain; charset=utf-8";

// A request the API answers with an error: thrown by the parsing and the rendering below,
// caught where they are called (PrepareApiRequest, ApiRequest::Answer).
struct ApiError {
  http::status status;
  Json body;
};

[[noreturn]] void BadRequest(const std::string& message) {
  throw ApiError{http::status::bad_request, Json{{"error", message}}};
}

// A puzzle that is not valid (`puzzle` empty when it could not be read), as sudoku-client's
// JSON says it (proto/result_json.h): {"puzzle", "verdict", "error": "invalid: WHERE: REASON",
// "where", "reason"}.
[[noreturn]] void Invalid(std::string_view puzzle, const std::string& where,
                          const std::string& reason) {
  throw ApiError{http::status::bad_request, wire::InvalidJson(puzzle, where, reason)};
}

// Texts that came from the request may hold any Unicode; they are valid UTF-8 (the parser
// checked), and messages are ASCII, but a replacement is cheaper than a thrown dump().
std::string Dump(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

HttpResponse JsonResponse(http::status status, const Json& body) {
  HttpResponse response = MakeResponse(status, kJsonType, Dump(body) + "\n");
  response.set(http::field::cache_control, "no-store");
  return response;
}

// A field's value as the error quotes it: its JSON, cut at 40 characters.
std::string Shown(const Json& value) {
  std::string text = Dump(value);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// A request body's fields, read with messages that name the field and what it takes. A field
// set to null counts as absent.
class Fields {
 public:
  Fields(const Json& body, std::initializer_list<const char*> known) : body_(body) {
    if (!body.is_object()) BadRequest("the body must be a JSON object, got " + Shown(body));
    std::string names;
    for (const char* name : known) names += (names.empty() ? "" : ", ") + std::string(name);
    for (const auto& item : body.items()) {
      if (std::find_if(known.begin(), known.end(), [&](const char* name) {
            return item.key() == name;
          }) == known.end()) {
        BadRequest("unknown field '" + item.key() + "' (expected " + names + ")");
      }
    }
  }

  // `what` says what the field takes where more than a boolean does.
  std::optional<bool> Bool(const char* name, const char* what = "true or false") const {
    const Json* value = Find(name);
    if (value == nullptr) return std::nullopt;
    if (!value->is_boolean()) {
      BadRequest(Quoted(name) + " expects " + what + ", got " + Shown(*value));
    }
    return value->get<bool>();
  }

  bool IsString(const char* name) const {
    const Json* value = Find(name);
    return value != nullptr && value->is_string();
  }

  // A whole number from `min` to `max`; `what` describes the range when the default wording
  // ("a whole number from 1 to 16") is not what the field takes.
  std::optional<uint64_t> Whole(const char* name, uint64_t min, uint64_t max,
                                const std::string& what = "") const {
    const Json* value = Find(name);
    if (value == nullptr) return std::nullopt;
    const bool whole = value->is_number_unsigned() ||
                       (value->is_number_integer() && value->get<int64_t>() >= 0);
    const uint64_t number = whole ? value->get<uint64_t>() : 0;
    if (!whole || number < min || number > max) {
      BadRequest(Quoted(name) + " expects " +
             (what.empty() ? "a whole number from " + std::to_string(min) + " to " +
                                 std::to_string(max)
                           : what) +
             ", got " + Shown(*value));
    }
    return number;
  }

  std::optional<std::string> String(const char* name) const {
    const Json* value = Find(name);
    if (value == nullptr) return std::nullopt;
    if (!value->is_string()) BadRequest(Quoted(name) + " expects a string, got " + Shown(*value));
    return value->get<std::string>();
  }

  // One of the names `parse` reads (a level), `choices` listing them for the message.
  template <typename T>
  std::optional<T> Choice(const char* name, std::optional<T> (*parse)(std::string_view),
                          const char* choices) const {
    const std::optional<std::string> text = String(name);
    if (!text) return std::nullopt;
    const std::optional<T> parsed = parse(*text);
    if (!parsed) BadRequest(Quoted(name) + " expects " + choices + ", got " + Shown(Json(*text)));
    return parsed;
  }

  // A Sudoku Explainer rating as /api/solve writes one (2.6), in tenths. The number's own JSON
  // text is read as sudoku-client reads --se-min, so that 4.25 is refused, not rounded.
  std::optional<uint32_t> Se(const char* name) const {
    const Json* value = Find(name);
    if (value == nullptr) return std::nullopt;
    const std::optional<uint32_t> tenths =
        value->is_number() ? rating::ParseSe(Dump(*value)) : std::nullopt;
    if (!tenths) {
      BadRequest(Quoted(name) +
                 " expects a rating from 1.0 to 11.9 with at most one decimal, got " +
                 Shown(*value));
    }
    return tenths;
  }

 private:
  static std::string Quoted(const char* name) { return "'" + std::string(name) + "'"; }

  const Json* Find(const char* name) const {
    const auto it = body_.find(name);
    return it == body_.end() || it->is_null() ? nullptr : &*it;
  }

  const Json& body_;
};

// One puzzle read from the text of "puzzle" as sudoku-client reads a file, and where each of its
// characters came from.
struct PuzzleInput {
  PuzzleRecord record;
  std::string text;  // 81 (or 729) characters as the solver takes them

  // "line 1, column 12" for a PuzzleError's 1-based position (0: the whole puzzle), as the
  // client names it.
  std::string Where(uint32_t position) const {
    return position == 0 ? LocateRecord(record)
                         : LocateCell(record, static_cast<int>(position) - 1);
  }
};

PuzzleInput ReadPuzzle(const Fields& fields) {
  const std::optional<std::string> text = fields.String("puzzle");
  if (!text) {
    BadRequest(
        "missing 'puzzle': the puzzle text (81 characters, a 9-line grid, a 729-character "
        "candidate state or HoDoKu's PM grid)");
  }
  std::istringstream in(*text);
  PuzzleReader reader(&in);
  PuzzleInput input;
  if (!reader.Next(&input.record)) {
    BadRequest(
        "'puzzle' holds no puzzle (expected 81 characters, a 9-line grid, a 729-character "
        "candidate state or HoDoKu's PM grid)");
  }
  PuzzleRecord second;
  if (reader.Next(&second)) {
    BadRequest("'puzzle' holds more than one puzzle (the second starts at line " +
           std::to_string(second.error ? second.error.line : second.first_line) +
           "); give one at a time");
  }
  if (input.record.error) Invalid("", Locate(input.record.error), Describe(input.record.error));
  input.text.assign(input.record.text());
  return input;
}

// Whether `text` is `lower` in any case (header values: "GZIP", "Application/JSON").
bool EqualsLowerCase(std::string_view text, std::string_view lower) {
  return text.size() == lower.size() &&
         std::equal(text.begin(), text.end(), lower.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

// "application/json; charset=utf-8" and the like.
bool IsJsonType(std::string_view type) {
  type = type.substr(0, type.find(';'));
  while (!type.empty() && type.back() == ' ') type.remove_suffix(1);
  return EqualsLowerCase(type, "application/json");
}

std::string_view ContentTypeOf(std::string_view name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (name.ends_with(".png")) return "image/png";
  if (name.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

// A page file as the daemon serves it: its bytes, gzip-compressed, and a strong ETag for each
// form. The files are built in, so both are made once, on the first request for the page.
struct ServedAsset {
  const WebAsset* asset;
  std::string gzip;
  std::string etag;       // "<16 hex digits>": FNV-1a of the bytes, the same in every daemon
  std::string gzip_etag;  // "<16 hex digits>-gzip": the compressed form is another
};

std::string Gzip(std::string_view bytes) {
  z_stream stream{};
  // 15 + 16: the largest window, with a gzip header (mtime 0, so the same bytes every time).
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw std::runtime_error("zlib: deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(bytes.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  // deflateBound leaves room for everything in one call: anything else is a zlib fault.
  if (status != Z_STREAM_END) throw std::runtime_error("zlib: deflate did not finish");
  return out;
}

std::string EntityTag(std::string_view bytes, std::string_view suffix) {
  uint64_t hash = 14695981039346656037u;
  for (const char c : bytes) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211u;
  }
  constexpr char kHex[] = "0123456789abcdef";
  std::string tag = "\"";
  for (int shift = 60; shift >= 0; shift -= 4) tag += kHex[(hash >> shift) & 0xf];
  return tag.append(suffix).append("\"");
}

const std::vector<ServedAsset>& ServedAssets() {
  static const std::vector<ServedAsset> served = [] {
    std::vector<ServedAsset> all;
    for (const WebAsset& asset : WebAssets()) {
      all.push_back({&asset, Gzip(asset.content), EntityTag(asset.content, ""),
                     EntityTag(asset.content, "-gzip")});
    }
    return all;
  }();
  return served;
}

// A header's comma-separated elements, each without the spaces around it.
std::vector<std::string_view> ListElements(std::string_view header) {
  std::vector<std::string_view> elements;
  while (!header.empty()) {
    const size_t comma = header.find(',');
    std::string_view element = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    while (!element.empty() && (element.front() == ' ' || element.front() == '\t')) {
      element.remove_prefix(1);
    }
    while (!element.empty() && (element.back() == ' ' || element.back() == '\t')) {
      element.remove_suffix(1);
    }
    if (!element.empty()) elements.push_back(element);
  }
  return elements;
}

// Whether Accept-Encoding takes gzip: named (or "*" is, and gzip is not) with a q above 0.
// "gzip;q=0" refuses it; no header at all takes only the bytes as they are.
bool AcceptsGzip(std::string_view header) {
  std::optional<bool> gzip, any;
  for (std::string_view element : ListElements(header)) {
    const size_t semicolon = element.find(';');
    std::string_view coding = element.substr(0, semicolon);
    while (!coding.empty() && coding.back() == ' ') coding.remove_suffix(1);
    bool wanted = true;
    if (semicolon != std::string_view::npos) {
      std::string_view parameter = element.substr(semicolon + 1);
      while (!parameter.empty() && parameter.front() == ' ') parameter.remove_prefix(1);
      if (parameter.starts_with("q=") || parameter.starts_with("Q=")) {
        // q is 0 to 1 with at most three decimals: zero only when every digit is.
        wanted = parameter.substr(2).find_first_not_of("0.") != std::string_view::npos;
      }
    }
    if (EqualsLowerCase(coding, "gzip") || EqualsLowerCase(coding, "x-gzip")) gzip = wanted;
    if (coding == "*") any = wanted;
  }
  return gzip.value_or(any.value_or(false));
}

// Whether If-None-Match names `etag` (or is "*"): the browser's copy is this one. The
// comparison is weak, as RFC 9110 has it for If-None-Match: a W/ before a tag does not matter.
bool NoneMatchHolds(std::string_view header, std::string_view etag) {
  for (std::string_view tag : ListElements(header)) {
    if (tag == "*") return true;
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

// A seed a page's script can hold exactly: JavaScript numbers are exact up to 2^53.
uint64_t RandomSeed() {
  std::random_device device;
  const uint64_t high = device();
  return ((high << 32) | device()) & ((uint64_t{1} << 53) - 1);
}

HttpResponse ErrorResponse(http::status status, const std::string& message) {
  return JsonResponse(status, Json{{"error", message}});
}

class SolveApiRequest : public ApiRequest {
 public:
  SolveApiRequest(const Json& body, const WebApiOptions& options) {
    const Fields fields(body, {"puzzle", "unique", "limit", "rate"});
    const bool unique = fields.Bool("unique").value_or(false);
    const auto limit = fields.Whole("limit", 1, options.max_solution_limit);
    if (unique && limit) {
      BadRequest("'unique' and 'limit' cannot be used together ('unique' is 'limit': 2)");
    }
    const wire::RatingScope scope = ReadRate(fields);
    input_ = ReadPuzzle(fields);
    wire::SolveRequest& solve = *request_.mutable_solve();
    solve.add_puzzles(input_.text);
    solve.set_solution_limit(unique ? 2 : static_cast<uint32_t>(limit.value_or(1)));
    solve.set_rate(rate_);
    solve.set_rating_scope(scope);
  }

 private:
  // "rate": true for both ratings, or "hodoku" or "se" for one path alone (as sudoku-client's
  // --rate-only); sets rate_ and returns the scope.
  wire::RatingScope ReadRate(const Fields& fields) {
    const std::optional<std::string> path =
        fields.IsString("rate") ? fields.String("rate") : std::nullopt;
    if (!path) {
      rate_ = fields.Bool("rate", "true, false, \"hodoku\" or \"se\"").value_or(false);
      return wire::ALL_RATINGS;
    }
    rate_ = true;
    if (*path == "hodoku") return wire::HODOKU_PATH;
    if (*path == "se") return wire::SE_PATH;
    BadRequest("'rate' expects true, false, \"hodoku\" or \"se\", got " + Shown(Json(*path)));
  }

  HttpResponse Render(const wire::Response& answer) const override {
    const wire::SolveResponse& response = answer.solve();
    const int verdict = response.verdicts(0);
    if (verdict == wire::INVALID) {
      const wire::PuzzleError& error = response.errors(0);
      Invalid(input_.text, input_.Where(error.position()), error.message());
    }
    const uint32_t solutions = response.solution_counts(0);
    std::optional<wire::RatingColumns> rating;
    // Pencilmark puzzles are not rated (the logical solver starts from givens).
    if (rate_ && solutions > 0 && input_.text.size() == static_cast<size_t>(kCells)) {
      rating = wire::RatingOf(response, 0);
    }
    wire::SolveResultJson json;
    return JsonResponse(http::status::ok, json.Of({.puzzle = input_.text,
                                                   .verdict = verdict,
                                                   .solution = response.solutions(),
                                                   .solutions = solutions,
                                                   .guesses = response.guesses(0),
                                                   .rating = rating}));
  }

  PuzzleInput input_;
  bool rate_ = false;
};

class ExplainApiRequest : public ApiRequest {
 public:
  explicit ExplainApiRequest(const Json& body) {
    const Fields fields(body, {"puzzle"});
    input_ = ReadPuzzle(fields);
    request_.mutable_explain()->set_puzzle(input_.text);
  }

 private:
  HttpResponse Render(const wire::Response& answer) const override {
    const wire::ExplainResponse& response = answer.explain();
    switch (response.verdict()) {
      case wire::INVALID:
        Invalid(input_.text, input_.Where(response.error().position()),
                response.error().message());
      case wire::UNSOLVABLE:
        return JsonResponse(http::status::ok,
                            wire::UnsolvableJson(input_.text, response.error().message()));
      default:
        return JsonResponse(http::status::ok,
                            wire::ExplanationJson(response, input_.text, /*candidates=*/true));
    }
  }

  PuzzleInput input_;
};

class GenerateApiRequest : public ApiRequest {
 public:
  GenerateApiRequest(const Json& body, const WebApiOptions& options) {
    const Fields fields(body, {"count", "level", "hodoku_level", "se_min", "se_max", "needs",
                               "clues", "symmetric", "minimal", "seed"});
    wire::GenerateRequest& generate = *request_.mutable_generate();
    generate.set_count(
        static_cast<uint32_t>(fields.Whole("count", 1, options.max_generate).value_or(1)));
    if (const auto level =
            fields.Choice("level", logic::ParseLevel, "simple, easy, intermediate or expert")) {
      generate.set_difficulty(static_cast<wire::Level>(*level));
    }
    if (const auto level = fields.Choice("hodoku_level", rating::ParseHodokuLevel,
                                         "easy, medium, hard, unfair or extreme")) {
      generate.set_hodoku_level(static_cast<wire::HodokuLevel>(*level));
    }
    const uint32_t se_min = fields.Se("se_min").value_or(0);
    const uint32_t se_max = fields.Se("se_max").value_or(0);
    if (se_min != 0 && se_max != 0 && se_min > se_max) {
      BadRequest("'se_min' " + rating::SeText(se_min) + " is above 'se_max' " +
                 rating::SeText(se_max));
    }
    generate.set_se_min(se_min);
    generate.set_se_max(se_max);
    // A technique by the name the explanation writes (logic::Name), one an explanation takes.
    const std::string techniques = "a technique (" + NeedsNames() + ")";
    if (const auto needs = fields.Choice("needs", ParseNeeds, techniques.c_str())) {
      generate.set_needs(wire::TechniqueToWire(*needs));
    }
    const std::string clue_range = "17 to 81, or 0 for no target";
    const uint64_t clues = fields.Whole("clues", 0, kCells, clue_range).value_or(0);
    if (clues != 0 && clues < kMinClues) {
      BadRequest("'clues' expects " + clue_range + ", got " + std::to_string(clues));
    }
    generate.set_clues(static_cast<uint32_t>(clues));
    generate.set_symmetric(fields.Bool("symmetric").value_or(false));
    generate.set_minimal(fields.Bool("minimal").value_or(false));
    const auto seed = fields.Whole("seed", 0, std::numeric_limits<uint64_t>::max());
    seed_ = seed ? *seed : RandomSeed();
    generate.set_seed(seed_);
    // The protocol's own check, which the fields above already satisfy.
    if (const auto refusal = CheckGenerateRequest(generate, options.max_generate)) {
      BadRequest(*refusal);
    }
  }

 private:
  HttpResponse Render(const wire::Response& answer) const override {
    const wire::GenerateResponse& response = answer.generate();
    Json puzzles = Json::array();
    for (int i = 0; i < response.clues_size(); ++i) {
      puzzles.push_back(
          Json{{"puzzle", response.puzzles().substr(static_cast<size_t>(i) * kCells, kCells)},
               {"clues", response.clues(i)}});
    }
    Json failures = Json::array();
    for (const wire::GenerateFailure& failure : response.failures()) {
      failures.push_back(Json{{"index", failure.index()}, {"message", failure.message()}});
    }
    return JsonResponse(http::status::ok, Json{{"seed", seed_},
                                               {"puzzles", std::move(puzzles)},
                                               {"failures", std::move(failures)}});
  }

  uint64_t seed_ = 0;  // the answer's, kept here: the request is handed over to the work
};

}  // namespace

HttpResponse ApiRequest::Answer(const wire::Response& response, bool complete,
                                const std::string& failure) const {
  if (!failure.empty()) {
    return ErrorResponse(http::status::internal_server_error, "internal error: " + failure);
  }
  if (!complete) return ErrorResponse(http::status::service_unavailable, "sudokud is stopping");
  try {
    return Render(response);
  } catch (const ApiError& error) {
    return JsonResponse(error.status, error.body);
  } catch (const std::exception& error) {
    return ErrorResponse(http::status::internal_server_error,
                         std::string("internal error: ") + error.what());
  }
}

HttpResponse ApiErrorResponse(http::status status, const std::string& message) {
  return ErrorResponse(status, message);
}

PreparedApiRequest PrepareApiRequest(std::string_view path, const std::string& body,
                                     const WebApiOptions& options) {
  PreparedApiRequest prepared;
  try {
    Json parsed;
    try {
      parsed = Json::parse(body);
    } catch (const Json::exception& e) {
      // A parse error ("[json.exception.parse_error.101] parse error at ..."), or a number too
      // large for any field ("[json.exception.out_of_range.406] number overflow parsing ...").
      std::string what = e.what();
      what = what.substr(what.find(']') + 2);
      BadRequest("the body is not JSON: " + what);
    }
    if (path == "/api/solve") {
      prepared.request = std::make_unique<SolveApiRequest>(parsed, options);
    } else if (path == "/api/explain") {
      prepared.request = std::make_unique<ExplainApiRequest>(parsed);
    } else {
      prepared.request = std::make_unique<GenerateApiRequest>(parsed, options);
    }
  } catch (const ApiError& error) {
    prepared.refusal = JsonResponse(error.status, error.body);
  }
  return prepared;
}

HttpResponse PageResponse(std::string_view path, const HttpRequest& request) {
  // A target that is no path ("?x", "*", an absolute URI) names no file of the page either.
  const std::string_view name = path == "/"               ? std::string_view("index.html")
                                : path.starts_with('/') ? path.substr(1)
                                                        : std::string_view();
  const auto& assets = ServedAssets();
  const auto served = std::find_if(assets.begin(), assets.end(),
                                   [&](const ServedAsset& a) { return a.asset->name == name; });
  if (name.empty() || served == assets.end()) {
    return MakeResponse(
        http::status::not_found, kTextType,
        "not found: " + std::string(request.target().data(), request.target().size()) +
            " (the page is at /)\n");
  }
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    HttpResponse response = MakeResponse(http::status::method_not_allowed, kTextType,
                                         "method not allowed: use GET or HEAD\n");
    response.set(http::field::allow, "GET, HEAD");
    return response;
  }
  const auto header = [&](http::field field) {
    const auto found = request.find(field);
    return found == request.end() ? std::string_view()
                                  : std::string_view(found->value().data(), found->value().size());
  };
  const WebAsset& asset = *served->asset;
  // Compressed where the browser takes it: the page's text shrinks to under a third.
  const bool gzip = AcceptsGzip(header(http::field::accept_encoding));
  const std::string& etag = gzip ? served->gzip_etag : served->etag;
  HttpResponse response =
      NoneMatchHolds(header(http::field::if_none_match), etag)
          ? MakeResponse(http::status::not_modified, ContentTypeOf(asset.name), "")
          : MakeResponse(http::status::ok, ContentTypeOf(asset.name),
                         gzip ? served->gzip : std::string(asset.content));
  // A 304 has no body to measure: a Content-Length of 0 would misstate the file's.
  if (response.result() == http::status::not_modified) response.erase(http::field::content_length);
  if (gzip) response.set(http::field::content_encoding, "gzip");
  response.set(http::field::etag, etag);
  // Caches keep a copy per Accept-Encoding: a compressed one must not reach a client that
  // did not ask for it.
  response.set(http::field::vary, "Accept-Encoding");
  // The page runs only its own files: no inline script, nothing from elsewhere.
  response.set("Content-Security-Policy",
               "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'");
  response.set("X-Content-Type-Options", "nosniff");
  response.set("Referrer-Policy", "no-referrer");
  // Built into the binary: a new daemon may bring new files, so the browser asks each time;
  // with the ETag, the answer is a 304 without the file while it has not changed.
  response.set(http::field::cache_control, "no-cache");
  return response;
}

std::string PathOf(const HttpRequest& request) {
  std::string path(request.target().data(), request.target().size());
  return path.substr(0, path.find('?'));
}

HttpResponse ApiRefusal(http::status status, std::string_view target, const std::string& why) {
  // Before the request line is read, nobody knows whether a page or the API was asked for: the
  // API's form ({"error": ...}) is the one a program can read.
  if (!target.empty() && !target.starts_with("/api/")) {
    return MakeResponse(status, kTextType, RefusalText(status, why) + "\n");
  }
  return ErrorResponse(status, RefusalText(status, why));
}

std::optional<HttpResponse> CheckApiRequest(std::string_view path, const HttpRequest& request,
                                            const HttpPeer& peer, const WebApiOptions& options) {
  if (path != "/api/solve" && path != "/api/explain" && path != "/api/generate") {
    return ErrorResponse(http::status::not_found,
                         "not found: " + std::string(path) +
                             " (the API has /api/solve, /api/explain and /api/generate)");
  }
  // The same rule as the TCP port's: where it takes only clients with a certificate, so does
  // the API.
  if (options.client_certificates && peer.certificate.empty()) {
    return ErrorResponse(
        http::status::forbidden,
        peer.tls ? "forbidden: the API takes only clients with a certificate signed by "
                   "--tls-client-ca, as the TCP port does, and this connection presented none"
                 : "forbidden: the TCP port takes only clients with a certificate "
                   "(--tls-client-ca), and this listener is plain HTTP: serve it with --http-tls "
                   "(clients present their certificate there), or pass "
                   "--http-api-without-client-cert to open the API to anyone who reaches it");
  }
  if (request.method() != http::verb::post) {
    HttpResponse response =
        ErrorResponse(http::status::method_not_allowed, "method not allowed: use POST");
    response.set(http::field::allow, "POST");
    return response;
  }
  const auto type = request.find(http::field::content_type);
  const std::string_view type_text =
      type == request.end() ? std::string_view()
                            : std::string_view(type->value().data(), type->value().size());
  if (type == request.end() || !IsJsonType(type_text)) {
    const std::string got = type == request.end() ? "none" : "'" + std::string(type_text) + "'";
    return ErrorResponse(
        http::status::unsupported_media_type,
        "the body must be JSON sent as Content-Type: application/json (got " + got + ")");
  }
  return std::nullopt;
}

}  // namespace sudoku::daemon
