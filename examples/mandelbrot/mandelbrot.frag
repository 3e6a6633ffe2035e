#version 330 core
// Mandelbrot set with smooth colouring. view = (centre x, centre y, width, iterations).
in vec2 v_uv;
out vec4 color;
uniform vec4 view;
void main() {
    vec2 c = view.xy + (v_uv - 0.5) * view.z;
    vec2 z = vec2(0.0);
    float n = 0.0;
    int maxit = int(view.w);
    for (int i = 0; i < maxit; i++) {
        if (dot(z, z) > 256.0)
            break;
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        n += 1.0;
    }
    if (n >= view.w) {
        color = vec4(0.0, 0.0, 0.0, 1.0);
    } else {
        float t = (n - log2(log2(dot(z, z))) + 4.0) / 64.0;
        vec3 col = 0.5 + 0.5 * cos(6.2831853 * (vec3(0.0, 0.15, 0.3) + t));
        color = vec4(col, 1.0);
    }
}
