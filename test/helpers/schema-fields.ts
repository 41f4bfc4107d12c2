// The fields a value carries that a JSON Schema does not name: the check that keeps the MCP tools'
// output schemas a true description of their results. The schemas leave objects open (a client must
// not fail on a field added later), so a client's validation cannot see an undeclared field: this can.
// An object schema without `properties` (a record: payload sections, an agent note's fields) names
// none on purpose, and an object that carries a `payload` is a message whole, whose envelope is the
// note's frontmatter as written: both are skipped.

type Schema = Record<string, unknown>;

const typeOf = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? "number" : typeof value);

function matchesType(schema: Schema, value: unknown): boolean {
	const t = schema.type;
	const actual = typeOf(value);
	const ok = (one: unknown) => one === actual || (one === "integer" && actual === "number");
	if (t === undefined) return true;
	return Array.isArray(t) ? t.some(ok) : ok(t);
}

export function undeclaredFields(schema: Schema, value: unknown, at = "$"): string[] {
	for (const key of ["anyOf", "oneOf"] as const) {
		const branches = schema[key] as Schema[] | undefined;
		if (branches) {
			const branch = branches.find((b) => matchesType(b, value));
			return branch ? undeclaredFields(branch, value, at) : [];
		}
	}
	if (Array.isArray(value)) {
		const items = schema.items as Schema | undefined;
		return items ? value.flatMap((v, i) => undeclaredFields(items, v, `${at}[${i}]`)) : [];
	}
	if (value === null || typeof value !== "object") return [];
	const properties = schema.properties as Record<string, Schema> | undefined;
	if (properties === undefined) return [];
	const out: string[] = [];
	const messageWhole = "payload" in properties;
	for (const [key, v] of Object.entries(value)) {
		const declared = properties[key];
		if (declared) out.push(...undeclaredFields(declared, v, `${at}.${key}`));
		else if (!messageWhole) out.push(`${at}.${key}`);
	}
	return out;
}
