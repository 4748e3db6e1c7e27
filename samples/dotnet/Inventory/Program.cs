// A small inventory program for the debugbridge demo: counts stock, handles a bad record, and
// exits with the number of items that need reordering.
var stock = new Dictionary<string, int> { ["widgets"] = 3, ["gears"] = 12, ["bolts"] = 0 };
var wanted = args.Length > 0 ? args[0] : "widgets";

int reorder = 0;
foreach (var (name, count) in stock)
{
    if (count < 5) reorder++; // DEMO:reorder
}

try
{
    ParseRecord("sprockets;many");
}
catch (FormatException e)
{
    Console.Error.WriteLine($"skipped a bad record: {e.Message}");
}

Console.WriteLine($"{wanted}: {stock.GetValueOrDefault(wanted)} in stock, {reorder} items to reorder");
return reorder;

static int ParseRecord(string record) => int.Parse(record.Split(';')[1]);
