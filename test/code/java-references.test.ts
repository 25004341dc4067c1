// Java renames by name (no language service): a method reference is judged by its type as a call is, a lambda's
// parameter by the interface it is given as, and a call the search cannot judge is named in the result.
import { expect, test } from 'vitest';
import { findReferencesTool } from '../../src/tools/find-references.js';
import { renameSymbolTool } from '../../src/tools/rename-symbol.js';
import { useToolWorkspace } from '../tools/helpers.js';

const ws = useToolWorkspace();
const { run } = ws;

/** jsoup's shape: Node, its subclasses TextNode and Element with a text() each, and Elements of Element. */
async function writeJsoup(): Promise<void> {
  await ws.write('src/nodes/Node.java', 'package nodes;\n\npublic abstract class Node {}\n');
  await ws.write(
    'src/nodes/TextNode.java',
    'package nodes;\n\npublic class TextNode extends Node {\n  public String text() {\n    return "";\n  }\n  Runnable r = this::text;\n}\n',
  );
  await ws.write(
    'src/nodes/Element.java',
    'package nodes;\n\npublic class Element extends Node {\n  public String text() {\n    return "";\n  }\n  TextNode first() {\n    return null;\n  }\n}\n',
  );
  await ws.write(
    'src/select/Nodes.java',
    'package select;\n\nimport java.util.ArrayList;\nimport nodes.Node;\n\npublic class Nodes<T extends Node> extends ArrayList<T> {}\n',
  );
  await ws.write(
    'src/select/Elements.java',
    [
      'package select;',
      '',
      'import nodes.Element;',
      'import nodes.TextNode;',
      '',
      'public class Elements extends Nodes<Element> {',
      '  public String text() {',
      '    return stream().map(Element::text).findFirst().orElse("");',
      '  }',
      '  public String own(TextNode node) {',
      '    java.util.function.Function<TextNode, String> f = TextNode::text;',
      '    return get(0).first().text() + f.apply(node);',
      '  }',
      '  public String second(Elements els) {',
      '    return els.get(1).text();',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
}

test('a method reference `Type::name` is judged by its type as a call is: TextNode.text renamed leaves `Element::text` alone (jsoup)', async () => {
  await writeJsoup();
  const result = await run(renameSymbolTool, {
    name: 'text',
    new_name: 'textContent',
    path: 'src/nodes/TextNode.java',
    line: 4,
  });
  expect(result.success).toBe(true);
  expect(await ws.read('src/nodes/TextNode.java')).toContain(
    'public String textContent() {\n    return "";\n  }\n  Runnable r = this::textContent;',
  );
  const elements = await ws.read('src/select/Elements.java');
  expect(elements).toContain('stream().map(Element::text)');
  expect(elements).toContain('Function<TextNode, String> f = TextNode::textContent;');
  // Elements extends Nodes<Element> extends ArrayList<T>: get(…) gives an Element, whose first() a TextNode.
  expect(elements).toContain('return get(0).first().textContent() + f.apply(node);');
  expect(elements).toContain('return els.get(1).text();');
  expect(await ws.read('src/nodes/Element.java')).toContain('public String text() {');
  expect(result.output).not.toContain('not renamed: text used');
});

test("a lambda's parameter is read by the interface the lambda is cast to, never by a same-named local of its method (gson's JsonDeserializer)", async () => {
  await ws.write(
    'src/JsonElement.java',
    'public abstract class JsonElement {\n  public String getAsString() {\n    return "";\n  }\n}\n',
  );
  // Another type with the name: a receiver of unknown type is no longer taken for JsonElement.
  await ws.write(
    'src/JsonWriter2.java',
    'public class JsonWriter2 {\n  public String getAsString() {\n    return "";\n  }\n}\n',
  );
  await ws.write(
    'src/JsonDeserializer.java',
    'public interface JsonDeserializer<T> {\n  T deserialize(JsonElement json, String typeOfT, Object context);\n}\n',
  );
  await ws.write(
    'src/JsonSerializer.java',
    'public interface JsonSerializer<T> {\n  String serialize(T src);\n}\n',
  );
  await ws.write(
    'src/AdaptersTest.java',
    [
      'public class AdaptersTest {',
      '  void register(Object adapter) {}',
      '  public void testDeserializer() {',
      '    register(',
      '        (JsonDeserializer<byte[]>)',
      '            (json, typeOfT, context) -> {',
      '              String str = json.getAsString();',
      '              return str.getBytes();',
      '            });',
      '    String json = "{}";',
      '    register((JsonSerializer<JsonElement>) src -> src.getAsString());',
      '    register((Handler) handled -> handled.getAsString());',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  // A file never naming JsonElement: a call read to give one is renamed; one of unread type is named, never taken.
  await ws.write(
    'src/JsonParser.java',
    'public final class JsonParser {\n  public static JsonElement parse(String s) {\n    return null;\n  }\n}\n',
  );
  await ws.write(
    'src/Util.java',
    'class Util {\n  static String read(String s) {\n    return JsonParser.parse(s).getAsString();\n  }\n  static String other(Handler h) {\n    return h.make().getAsString();\n  }\n}\n',
  );
  // find_references lists the uses it can judge, and names the one it cannot apart.
  const refs = await run(findReferencesTool, { name: 'JsonElement.getAsString' });
  expect(refs.output).toContain('src/AdaptersTest.java:7:');
  expect(refs.output).toContain('src/AdaptersTest.java:11:');
  expect(refs.output).toContain('(not listed: getAsString used where');
  expect(refs.output).toContain('src/Util.java:3:');
  expect(refs.output).toContain('src/AdaptersTest.java:12, src/Util.java:6; check those that mean this one)');
  const result = await run(renameSymbolTool, {
    name: 'JsonElement.getAsString',
    new_name: 'asString',
  });
  expect(result.success).toBe(true);
  const adapters = await ws.read('src/AdaptersTest.java');
  expect(adapters).toContain('String str = json.asString();');
  expect(adapters).toContain('(JsonSerializer<JsonElement>) src -> src.asString()');
  expect(await ws.read('src/JsonWriter2.java')).toContain('public String getAsString()');
  // The call it cannot judge is named by its place, not left unsaid.
  expect(adapters).toContain('handled -> handled.getAsString()');
  expect(await ws.read('src/Util.java')).toContain(
    'return JsonParser.parse(s).asString();\n  }\n  static String other(Handler h) {\n    return h.make().getAsString();',
  );
  expect(result.output).toContain(
    "(not renamed: getAsString used where the receiver's type could not be read, and other types define getAsString too, so by name it cannot tell which: src/AdaptersTest.java:12, src/Util.java:6;",
  );
});
