//===- JoinPtx.cpp - One PTX module from several of one target -----------===//
#include "aot/JoinPtx.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace mstage {
namespace {

Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

// The empty section NVPTX writes for line tables without DWARF.
constexpr StringLiteral EmptyMacinfo = "\t.section\t.debug_macinfo\t{\t}";

// A line's file number after Directive ("\t.loc\t", "\t.file\t"), and what
// follows it; nothing when the line is not that directive.
std::optional<std::pair<unsigned, StringRef>> fileNumber(StringRef Line,
                                                         StringRef Directive) {
  if (!Line.consume_front(Directive))
    return std::nullopt;
  size_t End = Line.find_first_not_of("0123456789");
  unsigned N;
  if (End == 0 || Line.take_front(End).getAsInteger(10, N))
    return std::nullopt;
  return std::make_pair(
      N, Line.drop_front(End == StringRef::npos ? Line.size() : End));
}

} // namespace

Expected<std::string> joinPtx(ArrayRef<StringRef> Modules) {
  if (Modules.size() == 1)
    return Modules.front().str(); // nothing to join
  std::string Out, Header;
  StringMap<unsigned> Files; // a .file's path (and what follows) -> number
  SmallVector<StringRef, 16> FileOrder;
  bool Macinfo = false;
  for (StringRef PTX : Modules) {
    size_t At = PTX.find("\n.address_size ");
    if (At == StringRef::npos)
      return fail("NVPTX made PTX without an .address_size line");
    At = PTX.find('\n', At + 1);
    StringRef Head = PTX.take_front(At), Body = PTX.drop_front(At);
    if (Header.empty())
      Out = Header = Head.str();
    else if (Head != Header)
      return fail("NVPTX made the kernels' PTX with different headers");
    SmallVector<StringRef, 0> Lines;
    Body.split(Lines, '\n');
    // This module's file numbers, then its lines with the joined ones.
    DenseMap<unsigned, unsigned> Renumber;
    for (StringRef Line : Lines)
      if (auto File = fileNumber(Line, "\t.file\t")) {
        auto [It, New] = Files.try_emplace(File->second, Files.size() + 1);
        if (New)
          FileOrder.push_back(It->first());
        Renumber[File->first] = It->second;
      }
    for (StringRef Line : Lines) {
      if (fileNumber(Line, "\t.file\t"))
        continue;
      if (Line == EmptyMacinfo) {
        Macinfo = true;
        continue;
      }
      if (Line.starts_with("\t.section"))
        return fail("the kernels' PTX has DWARF sections (" + Line.trim() +
                    ")");
      if (auto Loc = fileNumber(Line, "\t.loc\t")) {
        auto It = Renumber.find(Loc->first);
        if (It == Renumber.end())
          return fail("a .loc names file " + Twine(Loc->first) +
                      ", which no .file declares");
        (Out += "\t.loc\t") += std::to_string(It->second);
        // Where it was inlined, in the same numbering.
        auto [Own, Inlined] = Loc->second.split(", inlined_at ");
        Out += Own;
        if (!Inlined.empty()) {
          auto At = fileNumber(Inlined, "");
          auto It = At ? Renumber.find(At->first) : Renumber.end();
          if (It == Renumber.end())
            return fail("a .loc is inlined at an undeclared file");
          ((Out += ", inlined_at ") += std::to_string(It->second)) +=
              At->second;
        }
        Out += '\n';
        continue;
      }
      Out += Line;
      Out += '\n';
    }
  }
  if (Macinfo)
    (Out += EmptyMacinfo) += '\n';
  for (size_t I = 0; I < FileOrder.size(); ++I)
    ((Out += "\t.file\t") += std::to_string(I + 1)) +=
        FileOrder[I].str() + "\n";
  return Out;
}

} // namespace mstage
