// What a compiled expression is compiled against: every assembly the debuggee has loaded (by the
// paths it loaded them from) and the rest of the shared frameworks those come from (so LINQ compiles
// even before the program used System.Linq: the runtime loads it when the method runs). Metadata
// references are kept per file, and the compilation of the last set is reused, so Roslyn reads each
// assembly's symbols once per set, not once per expression.
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace DebugBridge.Worker.Eval;

public sealed class EvalReferences
{
    private readonly Dictionary<string, (DateTime Written, PortableExecutableReference? Reference)> _files = new(StringComparer.Ordinal);
    private string? _lastKey;
    private CSharpCompilation? _last;
    private Dictionary<string, MetadataReference> _lastByPath = new(StringComparer.Ordinal);
    private readonly object _gate = new();

    /** An empty compilation over the references, and each reference by the path the debuggee loaded it from. */
    public (CSharpCompilation Compilation, IReadOnlyDictionary<string, MetadataReference> ByPath) For(string[] loaded)
    {
        lock (_gate)
        {
            var paths = Expand(loaded);
            var key = string.Join("\n", paths);
            if (key == _lastKey && _last is not null) return (_last, _lastByPath);
            var byPath = new Dictionary<string, MetadataReference>(StringComparer.Ordinal);
            foreach (var path in paths)
            {
                // An alias of its own besides global: the source names a compiler-generated type through it (UnspeakableNames).
                if (Reference(path) is { } reference) byPath[path] = reference.WithAliases(["global", $"__r{byPath.Count}"]);
            }
            _last = CSharpCompilation.Create(ExpressionSource.AssemblyName, [], byPath.Values, RoslynAccess.Options());
            _lastByPath = byPath;
            _lastKey = key;
            return (_last, _lastByPath);
        }
    }

    /** The loaded files, then the other assemblies of their shared framework folders; one file per assembly name. */
    private static List<string> Expand(string[] loaded)
    {
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var paths = new List<string>();
        void Add(string path)
        {
            if (names.Add(Path.GetFileName(path))) paths.Add(path);
        }
        foreach (var path in loaded.Where(File.Exists).Order(StringComparer.Ordinal)) Add(path);
        var frameworks = loaded.Select(Path.GetDirectoryName).OfType<string>().Distinct().Where(IsSharedFramework).Order(StringComparer.Ordinal);
        foreach (var folder in frameworks)
        {
            foreach (var path in Directory.EnumerateFiles(folder, "*.dll").Order(StringComparer.Ordinal)) Add(path);
        }
        return paths;
    }

    /** A folder of a shared framework (shared/Microsoft.NETCore.App/10.0.1/…): it holds `<framework name>.deps.json`. */
    private static bool IsSharedFramework(string folder) =>
        Path.GetDirectoryName(folder) is { } parent && File.Exists(Path.Combine(folder, Path.GetFileName(parent) + ".deps.json"));

    private PortableExecutableReference? Reference(string path)
    {
        var written = File.GetLastWriteTimeUtc(path);
        if (_files.TryGetValue(path, out var known) && known.Written == written) return known.Reference;
        PortableExecutableReference? reference = null;
        try
        {
            using (var stream = File.OpenRead(path))
            using (var pe = new PEReader(stream))
            {
                if (pe.HasMetadata && pe.GetMetadataReader().IsAssembly) reference = MetadataReference.CreateFromFile(path);
            }
        }
        catch (Exception e) when (e is IOException or BadImageFormatException or UnauthorizedAccessException)
        {
            // Not a managed assembly (a native library beside the managed ones): not a reference.
        }
        _files[path] = (written, reference);
        return reference;
    }
}
