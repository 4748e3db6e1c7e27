// The compiled-evaluation request and answer (the TypeScript side: src/engines/dotnet/worker/evalProtocol.ts).
// Columns are 1-based positions in the expression as the user wrote it.
namespace DebugBridge.Worker.Eval;

/**
 * A type as the debugger read it from the stopped frame. `Kind`: "named" (`Assembly` is the path of
 * the module that defines it, `Name` its metadata name, `Outer+Inner` and `` List`1 ``, `Args` every
 * type argument, outer types' first), "array" (`Elem`, `Rank`), "primitive" (`Name` is the C#
 * keyword: int, string, object…) or "unknown" (pointers, by-refs, what could not be read).
 * `TupleNames`: a ValueTuple's element names, from the PDB.
 */
public sealed record TypeInput(string Kind, string? Assembly, string? Name, TypeInput[]? Args, TypeInput? Elem, int? Rank, string?[]? TupleNames);

/** A variable of the frame under its source name (`this` included), typed as it is declared. */
public sealed record VariableInput(string Name, TypeInput Type);

/** An alias of a namespace, of a type definition (`Type`: its metadata name), or of any type (`Input`: a frame's type argument, `using T = int[];`). */
public sealed record AliasInput(string Name, string? Namespace, string? Type, TypeInput? Input = null);

/** What the frame's source file imports (the PDB's import scopes): namespaces, `using static` types, aliases. */
public sealed record ImportsInput(string[] Namespaces, string[] StaticTypes, AliasInput[] Aliases);

/** What a side-effect-free evaluation may call besides getters and compiler-written members (the debugger's lists: host/evaluation/sideEffects.ts). */
public sealed record PureCallsInput(string[] Types, string[] Methods);

/** `NoThis`: why the frame would have no `this`, said when its variables have none. */
public sealed record CompileRequest(
    string Expression,
    bool SideEffects,
    PureCallsInput? Pure,
    string[] References,
    string Namespace,
    TypeInput? DeclaringType,
    VariableInput[] Variables,
    ImportsInput Imports,
    string? NoThis = null);

/** A parameter of the compiled method, in order: the frame's variable of that name (`this` too). */
public sealed record ParameterOutput(string Name, bool ByRef);

public sealed record CompileDiagnostic(string Id, string Message, int? Column);

/**
 * Either the compiled assembly (`Assembly`, base64) whose static method `MethodToken` evaluates the
 * expression, or why not: Roslyn's diagnostics, or the side effect that a side-effect-free
 * evaluation refuses.
 */
public sealed record CompileResult(
    string? Assembly,
    int MethodToken,
    ParameterOutput[] Parameters,
    string? ResultType,
    bool Void,
    CompileDiagnostic[] Diagnostics,
    string? SideEffect,
    string[] Notes);
