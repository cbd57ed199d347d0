// A small JSON Schema checker for the keywords strap.schema.json uses (type, const, enum,
// required, properties, additionalProperties: false, items, $ref to #/$defs/…). Enough to prove
// an export has the shape Loupe promises, without a validator dependency; anything else in a
// schema is reported as unsupported rather than silently passing.
type Schema = Record<string, unknown>;

const KNOWN = new Set(['$schema', '$id', 'title', 'description', 'type', 'const', 'enum', 'required', 'properties', 'additionalProperties', 'items', '$ref', '$defs']);

function typeOf(v: unknown): string {
	if (v === null) return 'null';
	if (Array.isArray(v)) return 'array';
	if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
	return typeof v;
}

/** Errors of `value` against `schema` ("path: message"); empty when it validates. */
export function validateSchema(schema: Schema, value: unknown, limit = 20): string[] {
	const errors: string[] = [];
	const walk = (s: Schema, v: unknown, path: string): void => {
		if (errors.length >= limit) return;
		for (const k of Object.keys(s)) if (!KNOWN.has(k)) errors.push(`${path}: unsupported schema keyword ${k}`);
		if (typeof s.$ref === 'string') {
			const m = /^#\/\$defs\/(.+)$/.exec(s.$ref);
			const target = m ? (schema.$defs as Record<string, Schema> | undefined)?.[m[1]] : undefined;
			if (!target) errors.push(`${path}: unresolved $ref ${s.$ref}`);
			else walk(target, v, path);
			return;
		}
		if ('const' in s && v !== s.const) errors.push(`${path}: expected ${JSON.stringify(s.const)}, got ${JSON.stringify(v)}`);
		if (Array.isArray(s.enum) && !s.enum.includes(v)) errors.push(`${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s.enum)}`);
		if (typeof s.type === 'string') {
			const t = typeOf(v);
			if (!(t === s.type || (s.type === 'number' && t === 'integer'))) {
				errors.push(`${path}: expected ${s.type}, got ${t}`);
				return;
			}
		}
		if (v && typeof v === 'object' && !Array.isArray(v)) {
			const obj = v as Record<string, unknown>;
			for (const r of (s.required as string[] | undefined) ?? []) if (!(r in obj)) errors.push(`${path}: missing ${r}`);
			const props = (s.properties as Record<string, Schema> | undefined) ?? {};
			for (const [k, child] of Object.entries(obj)) {
				if (k in props) walk(props[k], child, `${path}.${k}`);
				else if (s.additionalProperties === false) errors.push(`${path}: unexpected property ${k}`);
			}
		}
		if (Array.isArray(v) && s.items) v.forEach((item, i) => walk(s.items as Schema, item, `${path}[${i}]`));
	};
	walk(schema, value, '$');
	return errors;
}
