// Finds the files a module was compiled against: each reference the PDB names is matched by its
// MVID among the SDK's reference packs, the NuGet packages the project's restore resolved
// (obj/project.assets.json) and the program's own folder; a reference found only by name (a project
// reference's reference assembly, rebuilt since) falls back to the program's copy of it.
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Runtime.InteropServices;
using System.Text.Json;
using Microsoft.CodeAnalysis;

namespace DebugBridge.Worker.Enc;

public static class ReferenceLocator
{
    public static (List<MetadataReference> References, List<string> Missing) Locate(BuildRecord record)
    {
        var wanted = record.References.Select(r => r.FileName).ToHashSet(StringComparer.OrdinalIgnoreCase);
        var candidates = new Dictionary<string, List<string>>(StringComparer.OrdinalIgnoreCase);
        void Offer(string path)
        {
            var name = Path.GetFileName(path);
            if (!wanted.Contains(name) || !File.Exists(path)) return;
            if (!candidates.TryGetValue(name, out var list)) candidates[name] = list = [];
            if (!list.Contains(path)) list.Add(path);
        }
        foreach (var folder in PackFolders()) foreach (var file in Directory.EnumerateFiles(folder, "*.dll")) Offer(file);
        foreach (var file in PackageAssets(record)) Offer(file);
        var programFolder = Path.GetDirectoryName(record.ModulePath)!;
        foreach (var file in Directory.EnumerateFiles(programFolder, "*.dll")) Offer(file);

        var references = new List<MetadataReference>();
        var missing = new List<string>();
        foreach (var reference in record.References)
        {
            var paths = candidates.GetValueOrDefault(reference.FileName) ?? [];
            var path = paths.FirstOrDefault(p => MvidOf(p) == reference.Mvid) ?? paths.FirstOrDefault(p => Path.GetDirectoryName(p) == programFolder);
            if (path is null)
            {
                missing.Add(reference.FileName);
                continue;
            }
            var properties = new MetadataReferenceProperties(MetadataImageKind.Assembly, [.. reference.Aliases], reference.EmbedInteropTypes);
            references.Add(MetadataReference.CreateFromFile(path, properties));
        }
        return (references, missing);
    }

    private static Guid? MvidOf(string path)
    {
        try
        {
            using var pe = new PEReader(File.OpenRead(path));
            if (!pe.HasMetadata) return null;
            var metadata = pe.GetMetadataReader();
            return metadata.GetGuid(metadata.GetModuleDefinition().Mvid);
        }
        catch (BadImageFormatException)
        {
            return null;
        }
    }

    /** `<dotnet>/packs/<pack>/<version>/ref/<tfm>/`: the reference assemblies of the shared frameworks. */
    private static IEnumerable<string> PackFolders()
    {
        var roots = new[] { Environment.GetEnvironmentVariable("DOTNET_ROOT"), Path.GetFullPath(Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "..", "..", "..")) };
        foreach (var root in roots.Where(r => !string.IsNullOrEmpty(r)).Distinct())
        {
            var packs = Path.Combine(root!, "packs");
            if (!Directory.Exists(packs)) continue;
            foreach (var refFolder in Directory.EnumerateDirectories(packs, "ref", new EnumerationOptions { RecurseSubdirectories = true, MaxRecursionDepth = 2 }))
            {
                foreach (var tfm in Directory.EnumerateDirectories(refFolder)) yield return tfm;
            }
        }
    }

    /** The compile-time assets of the packages the project restored, from obj/project.assets.json. */
    private static IEnumerable<string> PackageAssets(BuildRecord record)
    {
        var assets = record.Documents
            .Select(d => d.Path.Replace('\\', '/'))
            .Select(p => p.IndexOf("/obj/", StringComparison.Ordinal) is var i and > 0 ? p[..i] + "/obj/project.assets.json" : null)
            .FirstOrDefault(p => p is not null && File.Exists(p));
        if (assets is null) yield break;
        using var json = JsonDocument.Parse(File.ReadAllBytes(assets));
        var root = json.RootElement;
        var folders = root.TryGetProperty("packageFolders", out var pf) ? pf.EnumerateObject().Select(p => p.Name).ToList() : [];
        if (!root.TryGetProperty("libraries", out var libraries) || !root.TryGetProperty("targets", out var targets)) yield break;
        foreach (var target in targets.EnumerateObject())
        {
            foreach (var package in target.Value.EnumerateObject())
            {
                if (!package.Value.TryGetProperty("compile", out var compile) || !libraries.TryGetProperty(package.Name, out var library)) continue;
                if (!library.TryGetProperty("path", out var libraryPath)) continue;
                foreach (var asset in compile.EnumerateObject())
                {
                    if (asset.Name.EndsWith("/_._", StringComparison.Ordinal)) continue;
                    foreach (var folder in folders) yield return Path.Combine(folder, libraryPath.GetString()!, asset.Name);
                }
            }
        }
    }
}
