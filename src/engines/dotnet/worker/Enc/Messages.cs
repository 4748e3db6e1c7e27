// The Edit and Continue requests and answers (the TypeScript side: src/engines/dotnet/worker/encWorker.ts).
// Lines and columns are 1-based, as the debugger host reads them from the PDB.
namespace DebugBridge.Worker.Enc;

public sealed record SessionRequest(string Session);

/** A module of the program, by the path it was loaded from; `originals`: the source files' bytes (base64) as built, for files changed on disk since. */
public sealed record ModuleInput(string Path, Dictionary<string, string>? Originals);

/** A frame running code of a module: Roslyn checks edits against it and says where its statement went. */
public sealed record ActiveStatementInput(
    string Module,
    int Token,
    int Version,
    int IlOffset,
    string Document,
    int StartLine,
    int StartColumn,
    int EndLine,
    int EndColumn,
    bool Leaf,
    bool Partial,
    bool Stale);

public sealed record UpdateRequest(
    string Session,
    ModuleInput[] Modules,
    string[] Capabilities,
    ActiveStatementInput[]? ActiveStatements,
    string[]? Files);

public sealed record Span(int StartLine, int StartColumn, int EndLine, int EndColumn);

public sealed record DiagnosticOutput(string Id, string Severity, string Message, string? File, int? Line, int? Column, bool RudeEdit);

public sealed record SequencePointOutput(int IlOffset, string Document, int StartLine, int StartColumn, int EndLine, int EndColumn, bool Hidden);

public sealed record LocalOutput(int Slot, string Name, bool Hidden);

public sealed record ScopeOutput(int StartOffset, int EndOffset, LocalOutput[] Variables);

/** A method the delta gives a new body (or adds): its new symbols. */
public sealed record MethodOutput(int Token, string Name, int DeclaringType, bool Added, SequencePointOutput[] Points, ScopeOutput[] Scopes, Dictionary<string, string> CustomDebugInformation);

public sealed record TypeOutput(int Token, string Name, string Namespace, int Enclosing);

public sealed record LineUpdateOutput(string File, int[][] Lines);

public sealed record ActiveStatementOutput(int Token, int Version, int IlOffset, Span NewSpan);

public sealed record ModuleDeltaOutput(
    string Module,
    string Mvid,
    string Metadata,
    string Il,
    string Pdb,
    int[] UpdatedMethods,
    int[] UpdatedTypes,
    string[] RequiredCapabilities,
    MethodOutput[] Methods,
    TypeOutput[] AddedTypes,
    LineUpdateOutput[] LineUpdates,
    ActiveStatementOutput[] ActiveStatements);

public sealed record UpdateResult(string Status, ModuleDeltaOutput[] Updates, DiagnosticOutput[] Diagnostics, string[] ChangedFiles, string[] Notes);
