#include "proto/command_line.h"

namespace sudoku {

namespace po = boost::program_options;

po::variables_map ReadCommandLine(po::command_line_parser parser,
                                  const po::options_description& flags,
                                  std::vector<std::string>* words) {
  po::options_description hidden;
  hidden.add_options()("argument", po::value(words));
  po::options_description all;
  all.add(flags).add(hidden);
  po::positional_options_description positional;
  positional.add("argument", -1);
  po::variables_map values;
  po::store(parser.options(all).positional(positional).run(), values);
  po::notify(values);
  return values;
}

}  // namespace sudoku
