// Roslyn's diagnostics as the worker reports them: the id (ENC codes for rude edits, CS for compile
// errors), the message in Roslyn's words, and where.
using Microsoft.CodeAnalysis;

namespace DebugBridge.Worker.Enc;

public static class Diagnostics
{
    public static DiagnosticOutput Describe(Diagnostic diagnostic)
    {
        var where = diagnostic.Location.GetMappedLineSpan();
        var inSource = where.IsValid && !string.IsNullOrEmpty(where.Path);
        return new DiagnosticOutput(
            diagnostic.Id,
            diagnostic.Severity.ToString().ToLowerInvariant(),
            diagnostic.GetMessage(),
            inSource ? where.Path : null,
            inSource ? where.StartLinePosition.Line + 1 : null,
            inSource ? where.StartLinePosition.Character + 1 : null,
            diagnostic.Id.StartsWith("ENC", StringComparison.Ordinal));
    }
}
