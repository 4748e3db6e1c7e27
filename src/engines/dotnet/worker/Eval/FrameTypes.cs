// The frame's variables typed as Roslyn symbols: each type is looked up in the assembly the runtime
// says defines it (so two assemblies with a type of the same name never clash), generic types are
// constructed with their arguments (outer types' first, as metadata lists them), tuples get the
// element names the PDB recorded. A type C# cannot name (an anonymous type, a closure class) is
// written as `object` when it is a class, and its variable left out when it is a struct.
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace DebugBridge.Worker.Eval;

public sealed class FrameTypes(CSharpCompilation compilation, IReadOnlyDictionary<string, MetadataReference> byPath)
{
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
        INamedTypeSymbol named => named.DeclaredAccessibility == Accessibility.Public
            && (named.ContainingType is null || Accessible(named.ContainingType)) && named.TypeArguments.All(Accessible),
        _ => true,
    };

    /** The nearest public base class of a type (not object), else the public interface of it that extends the most others, else object. */
    public static ITypeSymbol PublicView(INamedTypeSymbol type)
    {
        for (var t = type.BaseType; t is not null && t.SpecialType != SpecialType.System_Object; t = t.BaseType)
        {
            if (Accessible(t)) return t;
        }
        return type.AllInterfaces.Where(Accessible).OrderByDescending(i => i.AllInterfaces.Length).FirstOrDefault() ?? (ITypeSymbol)type.BaseType!;
    }

    /** How the generated source writes the type: fully qualified, or null when it cannot (a struct C# cannot name). */
    public static string? Source(ITypeSymbol type)
    {
        if (Nameable(type)) return type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);
        return type.IsReferenceType ? "object" : null;
    }
}
