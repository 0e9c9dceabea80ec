/**
 * Third-party scripts are added from effects, never written into the HTML:
 * the CSP forbids inline scripts, and first render must not wait on them.
 */
export function appendScript(parent: Element, src: string, data: Record<string, string> = {}): HTMLScriptElement {
  const script = document.createElement('script');
  script.src = src;
  script.async = true;
  Object.assign(script.dataset, data);
  parent.append(script);
  return script;
}
