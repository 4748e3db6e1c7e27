// What a module was compiled from, read back from the module and its Portable PDB: the source
// documents (with their checksums, generated ones embedded), the compilation options and the metadata
// references the SDK's compiler writes into every Portable PDB. No project file or MSBuild is needed.
using System.IO.Compression;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;

namespace DebugBridge.Worker.Enc;

public sealed record SourceDocument(string Path, byte[] Checksum, SourceHashAlgorithm Algorithm, byte[]? Embedded);

public sealed record ReferenceRecord(string FileName, string[] Aliases, bool EmbedInteropTypes, Guid Mvid);

public sealed class BuildRecord
{
    private static readonly Guid CompilationOptionsKind = new("B5FEEC05-8CD0-4A83-96DA-466284BB4BD8");
    private static readonly Guid MetadataReferencesKind = new("7E4D4708-096E-4C5C-AEDA-CB10BA6A740D");
    private static readonly Guid EmbeddedSourceKind = new("0E8A571B-6926-466E-B4AD-8AB04611F5FE");
    private static readonly Guid CSharpLanguage = new("3F5162F8-07C6-11D3-9053-00C04FA302A1");
    private static readonly Guid Sha1 = new("FF1816EC-AA5E-4D10-87F7-6F4963833460");
    private static readonly Guid Sha256 = new("8829D00F-11B8-4213-878B-770E8597AC16");

    public required string ModulePath { get; init; }
    public required string AssemblyName { get; init; }
    public required Guid Mvid { get; init; }
    public required IReadOnlyList<SourceDocument> Documents { get; init; }
    public required IReadOnlyDictionary<string, string> Options { get; init; }
    public required IReadOnlyList<ReferenceRecord> References { get; init; }

    public static BuildRecord Read(string modulePath)
    {
        using var pe = new PEReader(File.OpenRead(modulePath));
        var metadata = pe.GetMetadataReader();
        var name = metadata.GetString(metadata.GetAssemblyDefinition().Name);
        var mvid = metadata.GetGuid(metadata.GetModuleDefinition().Mvid);
        if (!pe.TryOpenAssociatedPortablePdb(modulePath, path => File.Exists(path) ? File.OpenRead(path) : null, out var provider, out _) || provider is null)
        {
            throw new WorkerException("NO_SYMBOLS", $"{Path.GetFileName(modulePath)} has no Portable PDB beside it or embedded");
        }
        using (provider)
        {
            var pdb = provider.GetMetadataReader();
            var embedded = EmbeddedSources(pdb);
            var documents = new List<SourceDocument>();
            foreach (var handle in pdb.Documents)
            {
                var document = pdb.GetDocument(handle);
                if (pdb.GetGuid(document.Language) != CSharpLanguage) continue;
                var algorithm = pdb.GetGuid(document.HashAlgorithm);
                documents.Add(new SourceDocument(
                    pdb.GetString(document.Name),
                    pdb.GetBlobBytes(document.Hash),
                    algorithm == Sha256 ? SourceHashAlgorithm.Sha256 : algorithm == Sha1 ? SourceHashAlgorithm.Sha1 : SourceHashAlgorithm.None,
                    embedded.GetValueOrDefault(handle)));
            }
            var options = ModuleInfo(pdb, CompilationOptionsKind) is { } optionsBlob ? ParseOptions(optionsBlob) : null;
            var references = ModuleInfo(pdb, MetadataReferencesKind) is { } referencesBlob ? ParseReferences(referencesBlob) : null;
            if (options is null || references is null)
            {
                throw new WorkerException("NO_BUILD_RECORD", $"the PDB of {Path.GetFileName(modulePath)} does not say how it was compiled (built by a compiler older than Roslyn 3.8?)");
            }
            return new BuildRecord { ModulePath = modulePath, AssemblyName = name, Mvid = mvid, Documents = documents, Options = options, References = references };
        }
    }

    public CSharpParseOptions ParseOptions()
    {
        var version = LanguageVersion.Default;
        if (Options.TryGetValue("language-version", out var text) && !LanguageVersionFacts.TryParse(text, out version)) version = LanguageVersion.Latest;
        var symbols = Options.TryGetValue("define", out var define) ? define.Split(',', StringSplitOptions.RemoveEmptyEntries) : [];
        return new CSharpParseOptions(version, DocumentationMode.None, SourceCodeKind.Regular, symbols);
    }

    public CSharpCompilationOptions CompilationOptions()
    {
        var outputKind = Options.TryGetValue("output-kind", out var kind) && Enum.TryParse<OutputKind>(kind, out var k) ? k : OutputKind.DynamicallyLinkedLibrary;
        var platform = Options.TryGetValue("platform", out var p) && Enum.TryParse<Platform>(p, out var pl) ? pl : Platform.AnyCpu;
        var nullable = Options.TryGetValue("nullable", out var n) && Enum.TryParse<NullableContextOptions>(n, out var nc) ? nc : NullableContextOptions.Disable;
        var optimization = Options.GetValueOrDefault("optimization", "debug");
        var options = new CSharpCompilationOptions(
            outputKind,
            optimizationLevel: optimization.StartsWith("release", StringComparison.Ordinal) ? OptimizationLevel.Release : OptimizationLevel.Debug,
            platform: platform,
            nullableContextOptions: nullable,
            checkOverflow: Options.GetValueOrDefault("checked") == "True",
            allowUnsafe: Options.GetValueOrDefault("unsafe") == "True",
            deterministic: true);
        return options.WithModuleName(Path.GetFileName(ModulePath));
    }

    private static byte[]? ModuleInfo(MetadataReader pdb, Guid kind)
    {
        foreach (var handle in pdb.GetCustomDebugInformation(EntityHandle.ModuleDefinition))
        {
            var info = pdb.GetCustomDebugInformation(handle);
            if (pdb.GetGuid(info.Kind) == kind) return pdb.GetBlobBytes(info.Value);
        }
        return null;
    }

    private static Dictionary<DocumentHandle, byte[]> EmbeddedSources(MetadataReader pdb)
    {
        var found = new Dictionary<DocumentHandle, byte[]>();
        foreach (var handle in pdb.CustomDebugInformation)
        {
            var info = pdb.GetCustomDebugInformation(handle);
            if (info.Parent.Kind != HandleKind.Document || pdb.GetGuid(info.Kind) != EmbeddedSourceKind) continue;
            var blob = pdb.GetBlobBytes(info.Value);
            var size = BitConverter.ToInt32(blob, 0);
            var content = blob.AsSpan(4);
            if (size == 0)
            {
                found[(DocumentHandle)info.Parent] = content.ToArray();
                continue;
            }
            var bytes = new byte[size];
            using var inflate = new DeflateStream(new MemoryStream(content.ToArray()), CompressionMode.Decompress);
            inflate.ReadExactly(bytes);
            found[(DocumentHandle)info.Parent] = bytes;
        }
        return found;
    }

    /** Pairs of NUL-terminated UTF-8 strings. */
    private static Dictionary<string, string> ParseOptions(byte[] blob)
    {
        var parts = Encoding.UTF8.GetString(blob).Split('\0');
        var options = new Dictionary<string, string>();
        for (var i = 0; i + 1 < parts.Length; i += 2) options[parts[i]] = parts[i + 1];
        return options;
    }

    /** Each: file name, aliases (comma-separated), kind and interop byte, timestamp, image size, MVID. */
    private static List<ReferenceRecord> ParseReferences(byte[] blob)
    {
        var references = new List<ReferenceRecord>();
        var at = 0;
        string Text()
        {
            var end = Array.IndexOf(blob, (byte)0, at);
            var text = Encoding.UTF8.GetString(blob, at, end - at);
            at = end + 1;
            return text;
        }
        while (at < blob.Length)
        {
            var fileName = Text();
            var aliases = Text().Split(',', StringSplitOptions.RemoveEmptyEntries);
            var flags = blob[at];
            at += 1 + 4 + 4;
            var mvid = new Guid(blob.AsSpan(at, 16));
            at += 16;
            references.Add(new ReferenceRecord(fileName, aliases, (flags & 0b10) != 0, mvid));
        }
        return references;
    }
}
