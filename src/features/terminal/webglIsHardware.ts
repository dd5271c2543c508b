/** Names of WebGL implementations that draw on the CPU. */
const softwareRenderers = /swiftshader|llvmpipe|softpipe|software|basic render/i

let answer: boolean | undefined

/**
 * Whether this browser's WebGL2 is drawn by a GPU. Where it is not (no GPU, a VM, a blocklisted
 * driver, headless Chromium), WebGL falls back to a software rasterizer that is several times
 * slower than xterm's DOM renderer: measured here, 37 MB/s of output through the DOM renderer
 * against 7 to 14 MB/s through SwiftShader. Asked once per page.
 */
export function webglIsHardware(): boolean {
  if (answer !== undefined) return answer
  const gl = document.createElement('canvas').getContext('webgl2')
  if (!gl) {
    answer = false
    return answer
  }
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER))
  gl.getExtension('WEBGL_lose_context')?.loseContext()
  answer = !softwareRenderers.test(name)
  return answer
}
