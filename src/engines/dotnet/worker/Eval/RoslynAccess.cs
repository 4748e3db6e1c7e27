// A debugger's expression sees every member, private ones included, as Visual Studio's expression
// evaluator does. Roslyn binds that way when its compilation options carry the binder flag
// IgnoreAccessibility, which is internal (the expression evaluator sets it from inside Roslyn): this
// file is the one place that sets it, by reflection against the pinned package version. The runtime
// then allows the emitted code's access through IgnoresAccessChecksToAttribute (ExpressionSource).
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace DebugBridge.Worker.Eval;

public static class RoslynAccess
{
    private static readonly Lazy<CSharpCompilationOptions> Cached = new(Create);

    public static CSharpCompilationOptions Options() => Cached.Value;

    private static CSharpCompilationOptions Create()
    {
        var options = new CSharpCompilationOptions(
                OutputKind.DynamicallyLinkedLibrary,
                optimizationLevel: OptimizationLevel.Release,
                allowUnsafe: true,
                nullableContextOptions: NullableContextOptions.Disable,
                concurrentBuild: false)
            .WithMetadataImportOptions(MetadataImportOptions.All);
        var roslyn = typeof(CSharpCompilationOptions).Assembly;
        var flags = roslyn.GetType("Microsoft.CodeAnalysis.CSharp.BinderFlags")
            ?? throw new WorkerException("ROSLYN_INTERNALS", "Roslyn has no BinderFlags type: the worker's pinned Roslyn version changed");
        var with = typeof(CSharpCompilationOptions).GetMethod("WithTopLevelBinderFlags", BindingFlags.Instance | BindingFlags.NonPublic)
            ?? throw new WorkerException("ROSLYN_INTERNALS", "Roslyn has no WithTopLevelBinderFlags: the worker's pinned Roslyn version changed");
        return (CSharpCompilationOptions)with.Invoke(options, [Enum.Parse(flags, "IgnoreAccessibility")])!;
    }
}
