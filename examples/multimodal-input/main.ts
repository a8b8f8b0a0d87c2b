/**
 * Multimodal input: images ride on the prompt message as parts — by URL (`imageUrl`) or as inline
 * bytes with a media type (`imageData`). Provider adapters map them to their own format. Parts are
 * validated before any model call, and they stay in the run's evidence.
 */
import { Agent, RunInputError, imageData, imageUrl, type Part } from 'golem';
import { FunctionModel, textResponse } from 'golem/testing';

/** A stand-in vision model: it describes the image parts of the last user message. */
function visionModel(): FunctionModel {
  return new FunctionModel((request) => {
    const prompt = request.messages[request.messages.length - 1];
    const seen = (prompt?.parts ?? []).map((part) =>
      part.url !== undefined
        ? `an image at ${part.url}`
        : `${part.data?.length ?? 0} bytes of ${part.mediaType ?? '?'}`,
    );
    return textResponse(`I see ${seen.length} images: ${seen.join('; ')}.`);
  });
}

// The 8-byte PNG signature, standing in for a real file read with fs.readFile.
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const model = visionModel();
  const agent = new Agent({ model });

  const parts: Part[] = [imageUrl('https://example.com/receipt.jpg'), imageData('image/png', png)];
  const result = await agent.run('Describe these images.', { parts });
  log(result.output);

  // The prompt message keeps its text in `content` and its images in `parts`.
  const prompt = result.messages[0];
  log(
    `evidence: ${prompt?.role ?? ''} "${prompt?.content ?? ''}" with ${prompt?.parts?.length ?? 0} parts (${(prompt?.parts ?? []).map((p) => p.url ?? p.mediaType ?? '').join(', ')})`,
  );

  // A malformed part fails the run up front with RunInputError: the model is never called.
  try {
    await agent.run('Describe this.', { parts: [{ kind: 'image', data: png }] });
    throw new Error('expected the malformed part to be rejected');
  } catch (error) {
    if (!RunInputError.is(error)) throw error;
    log(`rejected: ${error.message}`);
  }
  log(`model calls: ${model.calls}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
