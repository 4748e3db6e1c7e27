// The frame's variables typed as Roslyn symbols: each type is looked up in the assembly the runtime
// says defines it (so two assemblies with a type of the same name never clash), generic types are
// constructed with their arguments (outer types' first, as metadata lists them), tuples get the
// element names the PDB recorded. A type whose name C# cannot spell (an anonymous type, a state
// machine, a closure class: `<>f__AnonymousType0`, `<RunAsync>d__4`) is still written in the source,
// under a placeholder of the same length that the syntax tree then renames (UnspeakableNames), so
// `List<anonymous>`, a tuple of one, a compiler-generated struct keep their exact type.
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace DebugBridge.Worker.Eval;

public sealed class FrameTypes(CSharpCompilation compilation, IReadOnlyDictionary<string, MetadataReference> byPath)
{
    /** The names the source spells with placeholders, and the `extern alias` lines their assemblies need. */
    public UnspeakableNames Unspeakable { get; } = new(compilation);

    private static readonly Dictionary<string, SpecialType> Keywords = new()
    {
        ["bool"] = SpecialType.System_Boolean, ["char"] = SpecialType.System_Char, ["sbyte"] = SpecialType.System_SByte,
        ["byte"] = SpecialType.System_Byte, ["short"] = SpecialType.System_Int16, ["ushort"] = SpecialType.System_UInt16,
        ["int"] = SpecialType.System_Int32, ["uint"] = SpecialType.System_UInt32, ["long"] = SpecialType.System_Int64,
        ["ulong"] = SpecialType.System_UInt64, ["float"] = SpecialType.System_Single, ["double"] = SpecialType.System_Double,
        ["string"] = SpecialType.System_String, ["object"] = SpecialType.System_Object, ["nint"] = SpecialType.System_IntPtr,
        ["nuint"] = SpecialType.System_UIntPtr, ["void"] = SpecialType.System_Void,
    };

    /** The symbol, or null when the type is not in the references (or cannot be a variable's type here). */
    public ITypeSymbol? Resolve(TypeInput input)
    {
        switch (input.Kind)
        {
            case "primitive":
                return input.Name is { } keyword && Keywords.TryGetValue(keyword, out var special) ? compilation.GetSpecialType(special) : null;
            case "array":
                return input.Elem is { } elem && Resolve(elem) is { } element ? compilation.CreateArrayTypeSymbol(element, input.Rank ?? 1) : null;
            case "named":
                return Named(input);
            default:
                return null;
        }
    }

    /** A type definition by metadata name: in its own assembly first, else wherever the references have it. */
    public INamedTypeSymbol? Definition(string? assemblyPath, string metadataName)
    {
        if (assemblyPath is not null && byPath.TryGetValue(assemblyPath, out var reference)
            && compilation.GetAssemblyOrModuleSymbol(reference) is IAssemblySymbol assembly
            && assembly.GetTypeByMetadataName(metadataName) is { } own)
        {
            return own;
        }
        return compilation.GetTypeByMetadataName(metadataName);
    }

    private ITypeSymbol? Named(TypeInput input)
    {
        if (input.Name is null || Definition(input.Assembly, input.Name) is not { } definition) return null;
        var args = new List<ITypeSymbol>();
        foreach (var arg in input.Args ?? [])
        {
            if (Resolve(arg) is not { } resolved) return null;
            args.Add(resolved);
        }
        var type = args.Count == 0 ? definition : Construct(definition, args);
        if (type is null) return null;
        if (type.IsTupleType && input.TupleNames is { Length: > 0 } names && names.Length == type.TupleElements.Length && names.Any(n => n is not null))
        {
            return compilation.CreateTupleTypeSymbol([.. type.TupleElements.Select(e => e.Type)], [.. names]);
        }
        return type;
    }

    /** `Outer<A>.Inner<B>` from the flat argument list metadata gives (A, B). */
    private static INamedTypeSymbol? Construct(INamedTypeSymbol definition, List<ITypeSymbol> args)
    {
        var outerCount = 0;
        for (var outer = definition.ContainingType; outer is not null; outer = outer.ContainingType) outerCount += outer.Arity;
        if (outerCount + definition.Arity != args.Count) return null;
        var container = definition.ContainingType;
        if (container is not null && outerCount > 0)
        {
            container = Construct(container.OriginalDefinition, args.GetRange(0, outerCount));
            definition = container?.GetTypeMembers(definition.Name, definition.Arity).FirstOrDefault()!;
            if (definition is null) return null;
        }
        return definition.Arity == 0 ? definition : definition.Construct([.. args.GetRange(outerCount, definition.Arity)]);
    }

    /** Whether C# source can name the type (anonymous types and compiler classes it cannot). */
    public static bool Nameable(ITypeSymbol type) => type switch
    {
        IArrayTypeSymbol array => Nameable(array.ElementType),
        INamedTypeSymbol named => !named.IsAnonymousType && SyntaxFacts.IsValidIdentifier(named.Name)
            && (named.ContainingType is null || Nameable(named.ContainingType)) && named.TypeArguments.All(Nameable),
        ITypeParameterSymbol => false,
        IPointerTypeSymbol or IFunctionPointerTypeSymbol => false,
        _ => type.SpecialType != SpecialType.None,
    };

    /** Whether code of another assembly may name the type in a signature (public, as its outer types and type arguments). */
    public static bool Accessible(ITypeSymbol type) => type switch
    {
        IArrayTypeSymbol array => Accessible(array.ElementType),
        INamedTypeSymbol named => DefinitionAccessible(named) && named.TypeArguments.All(Accessible),
        _ => true,
    };

    /** Whether the generic definition is public with its outer types, whatever its type arguments (`IEnumerable<anonymous>`'s is). */
    public static bool DefinitionAccessible(INamedTypeSymbol type) =>
        type.DeclaredAccessibility == Accessibility.Public && (type.ContainingType is null || DefinitionAccessible(type.ContainingType));

    /** The nearest public base class of a type (not object), else the public interface of it that extends the most others, else object. */
    public static ITypeSymbol PublicView(INamedTypeSymbol type)
    {
        for (var t = type.BaseType; t is not null && t.SpecialType != SpecialType.System_Object; t = t.BaseType)
        {
            if (DefinitionAccessible(t)) return t;
        }
        return type.AllInterfaces.Where(DefinitionAccessible).OrderByDescending(i => i.AllInterfaces.Length).FirstOrDefault() ?? (ITypeSymbol)type.BaseType!;
    }

    /** How the generated source writes a nameable type: fully qualified, or null when C# cannot name it. */
    public static string? Source(ITypeSymbol type) => Nameable(type) ? type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat) : null;

    /** How the generated source writes any type a variable can have, names C# cannot spell included; null for what no variable of C# can be (a pointer, a type parameter). */
    public string? Spell(ITypeSymbol type)
    {
        if (Nameable(type)) return Source(type);
        switch (type)
        {
            case IArrayTypeSymbol array:
                return Spell(array.ElementType) is { } element ? $"{element}[{new string(',', array.Rank - 1)}]" : null;
            case INamedTypeSymbol { IsTupleType: true, TupleElements.Length: > 1 } tuple:
            {
                var elements = tuple.TupleElements.Select(e => (Type: Spell(e.Type), e.Name, Named: !SymbolEqualityComparer.Default.Equals(e.CorrespondingTupleField, e))).ToList();
                if (elements.Any(e => e.Type is null)) return null;
                return $"({string.Join(", ", elements.Select(e => e.Named ? $"{e.Type} {e.Name}" : e.Type))})";
            }
            case INamedTypeSymbol { TypeKind: not TypeKind.Error } named:
            {
                var args = new List<string>();
                foreach (var arg in named.TypeArguments)
                {
                    if (Spell(arg) is not { } spelled) return null;
                    args.Add(spelled);
                }
                var name = SyntaxFacts.IsValidIdentifier(named.Name) ? named.Name : Unspeakable.Placeholder(named.Name);
                if (name is null) return null;
                string scope;
                if (named.ContainingType is { } outer)
                {
                    if (Spell(outer) is not { } spelledOuter) return null;
                    scope = spelledOuter + ".";
                }
                else
                {
                    if (Unspeakable.Alias(named.ContainingAssembly) is not { } alias) return null;
                    scope = $"{alias}::{(named.ContainingNamespace.IsGlobalNamespace ? "" : named.ContainingNamespace.ToDisplayString() + ".")}";
                }
                return args.Count == 0 ? scope + name : $"{scope}{name}<{string.Join(", ", args)}>";
            }
            default:
                return null;
        }
    }
}
