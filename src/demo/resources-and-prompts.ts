/**
 * The demo's resources, resource templates and prompts: the conformance fixtures (static text
 * and binary resources, a subscribable resource, a template with completion, prompts with
 * arguments, an embedded resource and an image).
 */
import { embeddedResource, image, text, type EdgeEnv, type ServerDefinition } from "../index";
import { PNG_1X1_BASE64 } from "./assets";

/** Completion helper: the values of a fixed list that start with what the user typed. */
const byPrefix = (values: readonly string[]) => (typed: string) => values.filter((v) => v.startsWith(typed));

function addResources(server: ServerDefinition<EdgeEnv>): void {
  server
    .resource(
      "test://static-text",
      {
        name: "Static text resource",
        description: "A fixed text resource (conformance: resources-read-text).",
        mimeType: "text/plain",
      },
      (uri) => ({ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }),
    )

    .resource(
      "test://static-binary",
      {
        name: "Static binary resource",
        description: "A 1x1 PNG image as a blob (conformance: resources-read-binary).",
        mimeType: "image/png",
      },
      (uri) => ({ uri, mimeType: "image/png", blob: PNG_1X1_BASE64 }),
    )

    .resource(
      "test://watched-resource",
      {
        name: "Watched resource",
        description: "A resource clients can subscribe to (conformance: resources-subscribe, resources-unsubscribe).",
        mimeType: "text/plain",
      },
      (uri) => ({ uri, mimeType: "text/plain", text: "Watched resource content" }),
    )

    .resourceTemplate(
      "test://template/{id}/data",
      {
        name: "Template data",
        description: "JSON data for any id, with the id substituted (conformance: resources-templates-read).",
        mimeType: "application/json",
        complete: { id: byPrefix(["1", "2", "3", "123"]) },
      },
      (uri, variables) => {
        const id = variables.id ?? "";
        return {
          uri,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        };
      },
    );
  // ---------------------------------------------------------------------------------------------
  // Prompts
}

function addPrompts(server: ServerDefinition<EdgeEnv>): void {
  // ---------------------------------------------------------------------------------------------

  server
    .prompt(
      "test_simple_prompt",
      {
        description: "A prompt without arguments (conformance: prompts-get-simple).",
      },
      () => ({
        messages: [{ role: "user", content: text("This is a simple prompt for testing.") }],
      }),
    )

    .prompt(
      "test_prompt_with_arguments",
      {
        description: "A prompt with two required arguments, both completable (conformance: prompts-get-with-args, completion-complete).",
        arguments: [
          { name: "arg1", description: "First test argument", required: true, complete: byPrefix(["test", "testing", "tested", "other"]) },
          {
            name: "arg2",
            description: "Second test argument",
            required: true,
            complete: byPrefix(["value", "value1", "value2", "sample"]),
          },
        ],
      },
      ({ arg1, arg2 }) => ({
        messages: [{ role: "user", content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
      }),
    )

    .prompt(
      "test_prompt_with_embedded_resource",
      {
        description: "A prompt that embeds the resource named by its argument (conformance: prompts-get-embedded-resource).",
        arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
      },
      ({ resourceUri }) => ({
        messages: [
          {
            role: "user",
            content: embeddedResource({ uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." }),
          },
          { role: "user", content: text("Please process the embedded resource above.") },
        ],
      }),
    );
}

function addMediaPromptsAndCompletions(server: ServerDefinition<EdgeEnv>): void {
  server.prompt(
    "test_prompt_with_image",
    {
      description: "A prompt that includes an image (conformance: prompts-get-with-image).",
    },
    () => ({
      messages: [
        { role: "user", content: image(PNG_1X1_BASE64, "image/png") },
        { role: "user", content: text("Please analyze the image above.") },
      ],
    }),
  );
}

export function addResourcesAndPrompts(server: ServerDefinition<EdgeEnv>): void {
  addResources(server);
  addPrompts(server);
  addMediaPromptsAndCompletions(server);
}
