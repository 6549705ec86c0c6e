import { parseEndpointId } from '../../rpc/iroh/address';

/** Endpoint ids as typed, checked and normalised; the error names the first bad one. */
export function endpointIds(texts: readonly string[]): string[] {
  return texts.map((text) => {
    const id = parseEndpointId(text);
    if (!id) {
      throw new Error(
        `${JSON.stringify(text)} is not an endpoint id: it is 64 hex digits, as \`fux id\` prints on the machine that connects`,
      );
    }
    return id;
  });
}

/** What `allow.add` did, one line per id asked for: `allowed ID` or `ID was already allowed`. */
export function allowedLines(ids: readonly string[], res: { added: readonly string[] }): string[] {
  return ids.map((id) => (res.added.includes(id) ? `allowed ${id}` : `${id} was already allowed`));
}
