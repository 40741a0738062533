// The page's files (daemon/web/), compiled into the binary so that the page needs nothing from
// elsewhere at run time: the build embeds each file into a generated source (embed_assets.cmake).
//
// Thread-safety: constant data.
#ifndef SUDOKU_DAEMON_WEB_ASSETS_H_
#define SUDOKU_DAEMON_WEB_ASSETS_H_

#include <span>
#include <string_view>

namespace sudoku::daemon {

struct WebAsset {
  std::string_view name;     // the file's name in daemon/web/, e.g. "main.js"
  std::string_view content;  // its bytes
};

// Every file, in the order the build lists them.
std::span<const WebAsset> WebAssets();

}  // namespace sudoku::daemon

#endif  // SUDOKU_DAEMON_WEB_ASSETS_H_
