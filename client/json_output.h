// How the client's programs write JSON (solve --format json, explain --json, bench --json,
// sudoku-bench --json): every object is an ordered_json, written by AppendJsonLine or a
// JsonLineWriter, so that all of them read alike.
//
// Keys come out in the order they were set, the order a reader expects. An object is written on
// one line, compact ({"puzzle":"53..7...","verdict":"solved"}), in ASCII: a control character or
// one beyond ASCII as a \u escape ("\u00e9"), and a byte that is not UTF-8 (a typo in a puzzle
// file, a Latin-1 file name) as U+FFFD ("\ufffd"), so that the line is valid JSON whatever the
// input held.
//
// Thread-safety: stateless functions; a JsonLineWriter is used by one thread at a time.
#ifndef SUDOKU_CLIENT_JSON_OUTPUT_H_
#define SUDOKU_CLIENT_JSON_OUTPUT_H_

#include <cmath>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sudoku::client {

using Json = nlohmann::ordered_json;

// Appends JSON lines, as above, to one string. Json::dump() makes a string and a serializer for
// each value, which a few lines do not notice; solve --format json writes a line per puzzle,
// millions of them, and keeps one writer per batch: its serializer writes straight into the
// output. nlohmann::detail::serializer is what dump() itself uses; it is not documented API, so
// this is the one place that names it.
//
// The serializer escapes a string a byte at a time through a UTF-8 decoder, which made a line
// of solve --format json cost several times what the solving did. The puzzles and solutions
// there are printable ASCII without a quote or a backslash, which JSON writes as they are: such
// a string, at the top of the value or in its top object, is copied whole, and every other
// value goes to the serializer. The output is byte for byte Json::dump()'s (JsonLineWriter
// tests hold the two together for every byte).
class JsonLineWriter {
 public:
  explicit JsonLineWriter(std::string* out)
      : out_(out),
        serializer_(nlohmann::detail::output_adapter<char, std::string>(*out), ' ',
                    Json::error_handler_t::replace) {}

  // Appends `value` and a line break.
  void Append(const Json& value) {
    if (value.is_object()) {
      out_->push_back('{');
      for (auto item = value.begin(); item != value.end(); ++item) {
        if (item != value.begin()) out_->push_back(',');
        AppendString(item.key());
        out_->push_back(':');
        AppendValue(item.value());
      }
      out_->push_back('}');
    } else {
      AppendValue(value);
    }
    out_->push_back('\n');
  }

 private:
  static bool WrittenAsItIs(std::string_view text) {
    for (const char c : text) {
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
    }
    return true;
  }

  void AppendString(const std::string& text) {
    if (WrittenAsItIs(text)) {
      out_->push_back('"');
      out_->append(text);
      out_->push_back('"');
    } else {
      serializer_.dump(Json(text), false, true, 0);
    }
  }

  void AppendValue(const Json& value) {
    if (value.is_string()) {
      AppendString(value.get_ref<const std::string&>());
    } else {
      serializer_.dump(value, /*pretty_print=*/false, /*ensure_ascii=*/true, /*indent_step=*/0);
    }
  }

  std::string* out_;
  nlohmann::detail::serializer<Json> serializer_;
};

// Appends `value` to `out` as above, and a line break.
inline void AppendJsonLine(const Json& value, std::string* out) {
  JsonLineWriter(out).Append(value);
}

inline std::string JsonLine(const Json& value) {
  std::string line;
  AppendJsonLine(value, &line);
  return line;
}

// A measured figure cut to the `decimals` its text report shows. JSON writes a number as the
// shortest text that reads back the same, so 12.30 comes out as 12.3 and 100.0 as 100.0.
inline double Rounded(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

}  // namespace sudoku::client

#endif  // SUDOKU_CLIENT_JSON_OUTPUT_H_
