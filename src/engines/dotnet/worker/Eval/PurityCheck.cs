// What an expression does to the program besides computing its value, for the evaluations that must
// not change it (watches and conditions, as Visual Studio's `, nse`): it may not assign anything but
// the variables it declares itself (lambda parameters, pattern and `out var` variables), and may call
// only what is known not to change state: property getters and indexers, compiler-generated members
// (records' Equals/ToString, auto-properties), LINQ's Enumerable operators, members of strings,
// numbers, dates, Math and Convert, object's ToString/Equals/GetHashCode, and the read-only
// methods of the framework's collections. Allocating is not a side effect; constructors of the
// framework's types are allowed, the program's own are not (they run its code). The lists of pure
// types and methods come with the request: the debugger's hand-written evaluator applies the same
// (src/engines/dotnet/host/evaluation/sideEffects.ts), so both refuse the same calls in the same words.
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace DebugBridge.Worker.Eval;

public static class PurityCheck
{
    /** Why the expression may change the program, or null when it cannot. */
    public static string? SideEffect(IOperation body, IMethodSymbol evaluation, PureCallsInput? pure)
    {
        var types = new HashSet<string>(pure?.Types ?? [], StringComparer.Ordinal);
        var methods = new HashSet<string>(pure?.Methods ?? [], StringComparer.Ordinal);
        bool IsPure(IMethodSymbol method) => PurityCheck.IsPure(method, types, methods);
        foreach (var operation in body.DescendantsAndSelf())
        {
            var found = operation switch
            {
                ISimpleAssignmentOperation a => Assigned(a.Target, evaluation),
                ICompoundAssignmentOperation a => Assigned(a.Target, evaluation),
                ICoalesceAssignmentOperation a => Assigned(a.Target, evaluation),
                IIncrementOrDecrementOperation a => Assigned(a.Target, evaluation),
                IDeconstructionAssignmentOperation a => Assigned(a.Target, evaluation),
                IEventAssignmentOperation { EventReference: IEventReferenceOperation e } => $"it changes the event {e.Event.Name}",
                IEventAssignmentOperation => "it changes an event",
                IArgumentOperation { Parameter.RefKind: RefKind.Ref or RefKind.Out } arg => Assigned(arg.Value, evaluation),
                // A collection initializer fills the new object.
                IInvocationOperation { Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ImplicitReceiver } } call when IsFramework(call.TargetMethod) => null,
                IInvocationOperation call when !IsPure(call.TargetMethod) => $"it calls {Describe(call.TargetMethod)}",
                IObjectCreationOperation { Constructor: { } ctor } when !IsFramework(ctor) && !IsCompilerGenerated(ctor) => $"it runs the constructor of {ctor.ContainingType.Name}",
                IBinaryOperation { OperatorMethod: { } op } when !IsPure(op) => $"it calls the operator {Describe(op)}",
                IUnaryOperation { OperatorMethod: { } op } when !IsPure(op) => $"it calls the operator {Describe(op)}",
                IConversionOperation { OperatorMethod: { } op } when !IsPure(op) => $"it calls the conversion {Describe(op)}",
                IDynamicInvocationOperation or IDynamicMemberReferenceOperation => "it calls a member dynamically",
                _ => null,
            };
            if (found is not null) return found;
        }
        return null;
    }

    /** Assigning a variable the expression declares is computing; anything else changes the program. */
    private static string? Assigned(IOperation target, IMethodSymbol evaluation)
    {
        switch (target)
        {
            case IMemberReferenceOperation { Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ImplicitReceiver } }:
                return null; // an initializer of the new object (`new { A = 1 }`, `with { … }`)
            case ILocalReferenceOperation l when ExpressionSource.IsHiddenLocal(l.Local):
                return $"it assigns {l.Local.Name}";
            case ILocalReferenceOperation:
            case IDiscardOperation:
            case IDeclarationExpressionOperation:
                return null;
            case ITupleOperation tuple:
                return tuple.Elements.Select(e => Assigned(e, evaluation)).FirstOrDefault(r => r is not null);
            case IParameterReferenceOperation p when !SymbolEqualityComparer.Default.Equals(p.Parameter.ContainingSymbol, evaluation):
                return null; // a lambda's own parameter
            case IParameterReferenceOperation p:
                return $"it assigns {(p.Parameter.Name == ExpressionSource.This ? "this" : p.Parameter.Name)}";
            case IMemberReferenceOperation m:
                return $"it assigns {m.Member.Name}";
            case IArrayElementReferenceOperation:
                return "it assigns an array element";
            default:
                return "it assigns a value";
        }
    }

    private static bool IsPure(IMethodSymbol method, HashSet<string> pureTypes, HashSet<string> pureMethods)
    {
        method = method.ReducedFrom ?? method;
        if (method.MethodKind is MethodKind.PropertyGet or MethodKind.AnonymousFunction or MethodKind.LocalFunction) return true;
        if (IsCompilerGenerated(method) && method.MethodKind != MethodKind.PropertySet) return true;
        if (!IsFramework(method)) return false;
        var type = method.ContainingType;
        var name = type.ContainingNamespace is { IsGlobalNamespace: false } ns ? $"{ns.ToDisplayString()}.{type.MetadataName}" : type.MetadataName;
        if (pureTypes.Contains(name) || pureTypes.Contains(name.Split('`')[0])) return !method.Name.StartsWith("set_", StringComparison.Ordinal);
        if (type.SpecialType != SpecialType.None) return true; // int, bool, double… and object's own members
        if (pureMethods.Contains(method.Name)) return true;
        return method.MethodKind is MethodKind.UserDefinedOperator or MethodKind.Conversion && type.IsValueType;
    }

    public static bool IsFramework(ISymbol symbol) =>
        symbol.ContainingAssembly?.Name is { } name
        && (name is "System" or "mscorlib" or "netstandard" || name.StartsWith("System.", StringComparison.Ordinal) || name.StartsWith("Microsoft.", StringComparison.Ordinal));

    /** Records' members, auto-property accessors and the like, which the compiler writes. */
    private static bool IsCompilerGenerated(IMethodSymbol method)
    {
        static bool Marked(ISymbol s) => s.GetAttributes().Any(a => a.AttributeClass?.Name == "CompilerGeneratedAttribute");
        return Marked(method) || (method.AssociatedSymbol is { } property && method.MethodKind == MethodKind.PropertyGet && Marked(property));
    }

    private static string Describe(IMethodSymbol method) =>
        $"{method.ContainingType.Name}.{(method.MethodKind == MethodKind.Constructor ? method.ContainingType.Name : method.Name)}({string.Join(", ", method.Parameters.Select(p => p.Type.ToDisplayString()))})";
}
